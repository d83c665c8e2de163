import { strategyEntry, type ChoosingALock } from '@oversell/contracts';
import { render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/i18n';
import { i18n } from '../test/i18n';
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

const WATCHDOG = strategyEntry('watchdog').texts;

describe('ChoosingALockTables', () => {
  it('shows each row with its figures, "not measured" where the report had none, and the runs they came from', () => {
    render(<ChoosingALockTables data={DATA} />);
    const choice = WATCHDOG.en.choice!;
    const cells = within(screen.getByTestId('choice-watchdog')).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual([choice.runsOn, choice.complexity, choice.reliability, '293', '4907.3', 'not measured', 'not measured', 'not measured / not measured']);
    expect(screen.getByTestId('choice-watchdog-crash')).toHaveTextContent(`${choice.underFault.crash}measured: dead-holder-no-ttl, fix: clean 1/1`);
    expect(screen.getByTestId('choice-watchdog-failover')).toHaveTextContent(`${choice.underFault.failover}measured: not measured`);
    expect(screen.getByText(/strategies bench:/)).toHaveTextContent('strategies bench: npm run bench -- --duration 3, 2026-11-24T11:30:00.000Z, 2 cores, load 12.5 / 9 / 6');
    expect(screen.getByText(/lock bench:/)).toHaveTextContent('lock bench: not measured (no report)');
  });

  it('says the figures were recorded elsewhere, when and on what, and words each choice in the page\'s language', () => {
    render(
      <I18nextProvider i18n={createI18n({ language: 'zh-CN' })}>
        <ChoosingALockTables data={DATA} />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('choosing-a-lock-recorded')).toHaveTextContent('于 2026年11月24日 在另一台机器（2 核、24 GB 内存、Node v20）上记录，并非本实验室的运行');
    const choice = WATCHDOG['zh-CN'].choice!;
    const row = screen.getByTestId('choice-watchdog');
    expect(within(row).getByRole('rowheader')).toHaveTextContent(WATCHDOG['zh-CN'].title);
    expect(within(row).getAllByRole('cell')[0]).toHaveTextContent(choice.runsOn);
    expect(screen.getByTestId('choice-watchdog-pause')).toHaveTextContent(choice.underFault.pause);
  });

  it('in English: recorded on another machine, dated', () => {
    render(
      <I18nextProvider i18n={i18n}>
        <ChoosingALockTables data={DATA} />
      </I18nextProvider>,
    );
    expect(screen.getByTestId('choosing-a-lock-recorded')).toHaveTextContent('Recorded November 24, 2026 on another machine (2 cores, 24 GB, Node v20), not by this lab');
  });
});
