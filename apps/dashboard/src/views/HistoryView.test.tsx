import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ceilingWarmUp, NOOP_TARGET } from '@oversell/contracts';
import { captureDownloads } from '../test/downloads';
import { fakeApi } from '../test/fake-api';
import { FakeEventSource } from '../test/fake-event-source';
import { result, run, STRATEGIES } from '../test/fixtures';
import { renderApp, renderWithClient } from '../test/render';
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
    expect(within(rows[1]).getByRole('link', { name: 'no-lock' })).toHaveAttribute('href', '/#/runs/r1');
    expect(within(rows[1]).getByText('720/s')).toBeInTheDocument();
  });

  it('counts units sold twice in a run that did not sell out, where nothing was sold beyond the stock', async () => {
    const reconciliation = { ...result().reconciliation, initialStock: 100, sold: 66, remaining: 77, oversold: 0, lostUpdates: 43 };
    fakeApi([{ path: 'runs?limit=50', body: [run({ id: 'r1', result: result({ reconciliation }) })] }]);
    renderWithClient(<HistoryView />);
    const [row] = await screen.findAllByTestId('history-row');
    expect(within(row).getByTestId('history-sold-twice')).toHaveTextContent('43');
    expect(within(row).getByTestId('history-sold-twice')).toHaveClass('alarm-text');
  });

  it('downloads the runs as shown, with their ids and settings, as JSON', async () => {
    const downloads = captureDownloads();
    fakeApi([{ path: 'runs?limit=50', body: [run({ id: 'r1', params: { ...run().params, lockTtlMs: 100, faults: [{ kind: 'pause', at: 'lock-acquired' }] } })] }]);
    renderWithClient(<HistoryView />);
    await userEvent.setup().click(await screen.findByTestId('history-json'));
    expect(downloads.map((d) => d.filename)).toEqual(['history.json']);
    expect(JSON.parse(await downloads[0].text())).toEqual([
      expect.objectContaining({ runId: 'r1', strategy: 'no-lock', status: 'completed', soldTwice: 3, initialStock: 50, lockTtlMs: 100, businessDelayMs: 20, connections: 60, faults: 'pause' }),
    ]);
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
    renderApp('#/runs');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'no-lock' }));

    const panel = await screen.findByTestId('run-panel');
    expect(screen.getByTestId('stored-run-view')).toBeInTheDocument();
    expect(screen.queryByTestId('run-form')).not.toBeInTheDocument();
    expect(within(panel).getByTestId('stock-headline')).toHaveTextContent('3 units sold twice');
    expect(within(panel).getByTestId('stock-chart')).toBeInTheDocument();
    expect(within(panel).getByTestId('reconciliation-sold')).toHaveTextContent('53');
    expect(within(panel).getByText('This strategy takes no lock, so there are no holdings to draw.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute('aria-current', 'page');
    expect(FakeEventSource.instances).toHaveLength(0);
  });

  const ceiling = run({ id: 'noop-1', params: { strategy: NOOP_TARGET, initialStock: 100, load: { connections: 60, durationSec: 10 }, batchId: 'b1' }, result: result({ throughput: 12_345 }) });
  const warmUp = run({ id: 'warm-1', params: { initialStock: 100, batchId: 'b1', ...ceilingWarmUp({ connections: 60 }) }, result: result({ throughput: 400 }) });

  it("tells the batch's discarded warm-up from its no-op ceiling", async () => {
    fakeApi([{ path: 'runs?limit=50', body: [ceiling, warmUp] }]);
    renderWithClient(<HistoryView />);
    const [ceilingRow, warmUpRow] = await screen.findAllByTestId('history-row');
    expect(ceilingRow).toHaveTextContent('no-op ceiling');
    expect(warmUpRow).toHaveTextContent('warm-up, discarded');
    expect(ceilingRow).not.toHaveTextContent('warm-up');
  });

  it('opens a no-op run as the ceiling measurement: no stock, no oversold counter, no reconciliation', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    fakeApi([
      { path: 'strategies', body: STRATEGIES },
      { path: 'runs/noop-1', body: ceiling },
    ]);
    renderApp('#/runs/noop-1');
    const panel = await screen.findByTestId('run-panel');
    expect(panel).toHaveTextContent('noop (no-op ceiling)');
    expect(within(panel).getByTestId('ceiling-measurement')).toHaveTextContent('12,345/s');
    expect(panel).not.toHaveTextContent(/stock/i);
    expect(within(panel).queryByTestId('stock-headline')).not.toBeInTheDocument();
    expect(within(panel).queryByTestId('reconciliation')).not.toBeInTheDocument();
    expect(within(panel).queryByTestId('stock-chart')).not.toBeInTheDocument();
  });
});
