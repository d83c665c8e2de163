import { faultOutcomesText, figureText, LOCK_FAULTS, type ChoosingALock } from '@oversell/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import generated from '../generated/choosing-a-lock.json';
import { fakeApi } from '../test/fake-api';
import { STRATEGIES, strategy } from '../test/fixtures';
import { renderWithClient } from '../test/render';
import { ExplainView } from './ExplainView';

describe('ExplainView', () => {
  it('explains each strategy: its steps, its script, its guarantee and pitfall, and where it shows', async () => {
    fakeApi([{ path: 'strategies', body: STRATEGIES }]);
    renderWithClient(<ExplainView />);

    const lua = await screen.findByTestId('explain-lua-decrement');
    expect(within(lua).getByRole('heading', { level: 2 })).toHaveTextContent('Lua decrement');
    const steps = within(lua).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual(['EVAL decrement script', 'INSERT order']);
    const code = lua.querySelector('pre code');
    expect(code).toHaveTextContent("local s = tonumber(redis.call('GET', KEYS[1]))");
    expect(code).toHaveClass('language-lua');
    expect(within(lua).getByText('Never below zero.')).toBeInTheDocument();
    expect(within(lua).getByText('Redis and MySQL can disagree if the order insert fails.')).toBeInTheDocument();
    expect(within(lua).getByText(/closest to the no-op ceiling/)).toBeInTheDocument();

    const noLock = screen.getByTestId('explain-no-lock');
    expect(within(noLock).getByText(/red oversold counter goes above 0/)).toBeInTheDocument();
    expect(noLock.querySelector('pre')).toBeNull();
  });

  it('names the lock service a strategy needs besides Redis and MySQL', async () => {
    fakeApi([{ path: 'strategies', body: [strategy(), strategy({ name: 'etcd', kind: 'lock', needs: ['etcd'] })] }]);
    renderWithClient(<ExplainView />);
    expect(await within(await screen.findByTestId('explain-etcd')).findByText('needs etcd')).toHaveAttribute('title', 'ETCD_ENDPOINTS; npm run demo starts it');
    expect(within(screen.getByTestId('explain-no-lock')).queryByText(/^needs/)).toBeNull();
  });

  it('opens with "Choosing a lock": one row per row of the generated JSON, in its order, with its figures', async () => {
    const data = generated as ChoosingALock;
    fakeApi([{ path: 'strategies', body: STRATEGIES }]);
    renderWithClient(<ExplainView />);
    const section = await screen.findByTestId('choosing-a-lock');

    const rows = within(within(section).getByTestId('choosing-a-lock-figures')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.dataset.testid)).toEqual(data.rows.map((row) => `choice-${row.strategy}`));
    expect(data.rows.length).toBeGreaterThan(0);
    for (const row of data.rows) {
      const cells = within(screen.getByTestId(`choice-${row.strategy}`)).getAllByRole('cell').map((cell) => cell.textContent);
      expect(cells.slice(0, 5)).toEqual([row.choice.runsOn, row.choice.complexity, row.choice.reliability, figureText(row.ordersPerSec), figureText(row.p99Ms, 1)]);
      for (const fault of LOCK_FAULTS) {
        expect(screen.getByTestId(`choice-${row.strategy}-${fault}`)).toHaveTextContent(`measured: ${faultOutcomesText(row.underFault[fault])}`);
      }
    }
  });

  it('says when the service cannot be reached', async () => {
    fakeApi([{ path: 'strategies', status: 502, body: 'Bad Gateway' }]);
    renderWithClient(<ExplainView />);
    expect(await screen.findByTestId('service-unreachable')).toHaveTextContent('Cannot reach the order service');
  });
});
