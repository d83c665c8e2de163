import type { BenchReport, BenchRow, ContendedPhase } from '@oversell/contracts';
import { markdownTable } from './bench-report';

const row = (strategy: BenchRow['strategy'], contendedPhase: ContendedPhase | null): BenchRow => ({
  strategy,
  runId: strategy,
  status: 'completed',
  failure: null,
  sold: 100,
  oversold: 0,
  lost: 0,
  lockTimeouts: 0,
  conflicts: 0,
  conflictRetries: 0,
  exclusionViolations: 0,
  attempts: 1000,
  throughput: 500,
  ratioToCeiling: 0.5,
  p50: 1,
  p99: 2,
  contendedPhase,
  peakRssMb: [100],
});

const report = (rows: BenchRow[]): BenchReport => ({
  command: 'npm run bench',
  scenario: 'compare',
  startedAt: '',
  finishedAt: '',
  machine: { cpus: 2, memoryGb: 4, node: 'v22' },
  instances: 1,
  settings: { initialStock: 100, connections: 10, durationSec: 8 },
  ceiling: null,
  rows,
});

/** The cells of one strategy's line, by column name. */
function cells(markdown: string, strategy: string): Record<string, string> {
  const lines = markdown.split('\n');
  const names = lines.find((l) => l.startsWith('| strategy '))!.split('|').slice(1, -1).map((c) => c.trim());
  const values = lines.find((l) => l.startsWith(`| ${strategy} |`))!.split('|').slice(1, -1).map((c) => c.trim());
  return Object.fromEntries(names.map((name, i) => [name, values[i]]));
}

describe('markdownTable', () => {
  it('prints the contended phase beside the whole run: sell-out time, units/s and p99 in the phase', () => {
    const markdown = markdownTable(
      report([
        row('lua-decrement', { soldOut: true, durationMs: 2000, attempts: 300, units: 100, unitsPerSec: 50, p50: 3, p99: 9.5 }),
        row('db-optimistic', { soldOut: false, durationMs: 8000, attempts: 900, units: 40, unitsPerSec: 5, p50: 30, p99: 90 }),
        row('watchdog', null),
      ]),
    );
    expect(cells(markdown, 'lua-decrement')).toMatchObject({ 'req/s': '500', 'sell-out s': '2', 'units/s in phase': '50', 'phase p99 ms': '9.5', 'peak RSS MB/instance': '100' });
    expect(cells(markdown, 'db-optimistic')).toMatchObject({ 'sell-out s': 'never sold out', 'units/s in phase': '5', 'phase p99 ms': '90' });
    expect(cells(markdown, 'watchdog')).toMatchObject({ 'sell-out s': '–', 'units/s in phase': '–' });
  });
});
