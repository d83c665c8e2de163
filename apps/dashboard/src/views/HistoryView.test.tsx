import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../App';
import { fakeApi } from '../test/fake-api';
import { FakeEventSource } from '../test/fake-event-source';
import { run, STRATEGIES } from '../test/fixtures';
import { renderWithClient } from '../test/render';
import { HistoryView } from './HistoryView';

describe('HistoryView', () => {
  it('lists stored runs newest first with their outcome', async () => {
    fakeApi([
      {
        path: 'runs?limit=50',
        body: [run({ id: 'r2', status: 'running', result: null }), run({ id: 'r1', params: { ...run().params, scenario: 'flash-sale' } })],
      },
    ]);
    renderWithClient(<HistoryView />);
    const rows = await screen.findAllByTestId('history-row');
    expect(rows.map((r) => r.getAttribute('data-run-id'))).toEqual(['r2', 'r1']);
    expect(within(rows[0]).getByTestId('run-status')).toHaveTextContent('running');
    expect(within(rows[1]).getByText('flash-sale')).toBeInTheDocument();
    expect(within(rows[1]).getByRole('link', { name: 'no-lock' })).toHaveAttribute('href', '#/runs/r1');
    expect(within(rows[1]).getByText('720/s')).toBeInTheDocument();
  });

  it('says when there are no runs yet', async () => {
    fakeApi([{ path: 'runs?limit=50', body: [] }]);
    renderWithClient(<HistoryView />);
    expect(await screen.findByTestId('history-empty')).toHaveTextContent('No runs yet');
  });

  it('opens a stored run read-only with the same charts and figures, without a stream', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    FakeEventSource.instances = [];
    fakeApi([
      { path: 'strategies', body: STRATEGIES },
      { path: 'runs?limit=50', body: [run()] },
      { path: 'runs/run-1', body: run() },
    ]);
    window.location.hash = '#/runs';
    renderWithClient(<App />);
    await userEvent.setup().click(await screen.findByRole('link', { name: 'no-lock' }));

    const panel = await screen.findByTestId('run-panel');
    expect(screen.getByTestId('stored-run-view')).toBeInTheDocument();
    expect(screen.queryByTestId('run-form')).not.toBeInTheDocument();
    expect(within(panel).getByTestId('oversold-counter')).toHaveTextContent('3');
    expect(within(panel).getByTestId('stock-chart')).toBeInTheDocument();
    expect(within(panel).getByTestId('reconciliation-sold')).toHaveTextContent('53');
    expect(within(panel).getByText('This strategy takes no lock, so there are no holdings to draw.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute('aria-current', 'page');
    expect(FakeEventSource.instances).toHaveLength(0);
  });
});
