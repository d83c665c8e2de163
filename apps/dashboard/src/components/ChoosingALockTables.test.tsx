import type { ChoosingALock } from '@oversell/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChoosingALockTables } from './ChoosingALockTables';

const DATA: ChoosingALock = {
  command: 'npm run choosing-a-lock',
  generatedAt: '2026-11-24T12:00:00.000Z',
  sources: {
    bench: { file: 'bench-results/latest.json', command: 'npm run bench -- --duration 3', startedAt: '2026-11-24T11:30:00.000Z', machine: { cpus: 2, memoryGb: 24, node: 'v20', loadAverage: [12.5, 9, 6] } },
    locks: null,
    pitfalls: null,
  },
  rows: [
    {
      strategy: 'watchdog',
      title: 'Watchdog lock',
      kind: 'lock',
      choice: { runsOn: 'one Redis', complexity: 'medium', reliability: 'renewed lease', underFault: { crash: 'expires within one TTL', pause: 'double grant', 'store-cut': 'lock-lost', failover: 'lost with the master' } },
      ordersPerSec: 293.4,
      p99Ms: 4907.25,
      oversold: 0,
      lockSectionsPerSec: null,
      lockWaitP99Ms: null,
      lockTimeouts: null,
      lockErrors: null,
      underFault: { crash: [{ preset: 'dead-holder-no-ttl', role: 'fix', expected: 1, runs: 1, oversold: 0, shows: 'deadlock' }], pause: [], 'store-cut': [], failover: [] },
    },
  ],
};

describe('ChoosingALockTables', () => {
  it('shows each row with its figures, "not measured" where the report had none, and the runs they came from', () => {
    render(<ChoosingALockTables data={DATA} />);
    const cells = within(screen.getByTestId('choice-watchdog')).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual(['one Redis', 'medium', 'renewed lease', '293', '4907.3', 'not measured', 'not measured', 'not measured / not measured']);
    expect(screen.getByTestId('choice-watchdog-crash')).toHaveTextContent('expires within one TTLmeasured: dead-holder-no-ttl, fix: clean 1/1');
    expect(screen.getByTestId('choice-watchdog-failover')).toHaveTextContent('lost with the mastermeasured: not measured');
    expect(screen.getByText(/strategies bench:/)).toHaveTextContent('strategies bench: npm run bench -- --duration 3, 2026-11-24T11:30:00.000Z, 2 cores, load 12.5 / 9 / 6');
    expect(screen.getByText(/lock bench:/)).toHaveTextContent('lock bench: not measured (no report)');
  });
});
