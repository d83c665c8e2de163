import type { BenchReport, BenchRow, ContendedPhase } from '@oversell/contracts';

/** A completed bench row with the figures a chart or table reads; the rest are plausible constants. */
export function benchRowFixture(strategy: BenchRow['strategy'], figures: { throughput: number; p99: number; contendedPhase: ContendedPhase | null }): BenchRow {
  return {
    strategy,
    orderWrite: 'sync',
    runId: `run-${strategy}`,
    status: 'completed',
    failure: null,
    sold: 100,
    soldTwice: 0,
    oversold: 0,
    lost: 0,
    lockTimeouts: 0,
    conflicts: 0,
    conflictRetries: 0,
    errors: 0,
    exclusionViolations: 0,
    attempts: 1000,
    ratioToCeiling: null,
    p50: 1,
    peakRssMb: [100],
    roundTrip: null,
    cpu: null,
    ...figures,
  };
}

/** A contended phase that sold out (or not) at the given units/s and p99. */
export function phaseFixture(unitsPerSec: number, p99: number, soldOut = true): ContendedPhase {
  return { soldOut, durationMs: 2000, attempts: 300, units: unitsPerSec * 2, unitsPerSec, p50: p99 / 3, p99 };
}

/** A bench report of the given rows and ceiling, through the given number of instances. */
export function benchReportFixture(rows: BenchRow[], ceiling: BenchRow | null, instances = 3): BenchReport {
  return {
    command: 'npm run bench',
    scenario: 'compare',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    machine: { cpus: 2, memoryGb: 4, node: 'v20.20.2' },
    instances,
    settings: { initialStock: 1000, connections: 500, durationSec: 8, orderWrites: ['sync'] },
    ceiling,
    bareFastify: null,
    throughGateway: null,
    rows,
  };
}

/** The cells of a markdown table's line whose first cell is `first` (a strategy), by column name. */
export function tableCells(markdown: string, first: string): Record<string, string> {
  const lines = markdown.split('\n');
  const names = lines.find((l) => l.startsWith('| strategy '))!.split('|').slice(1, -1).map((c) => c.trim());
  const values = lines.find((l) => l.startsWith(`| ${first} |`))!.split('|').slice(1, -1).map((c) => c.trim());
  return Object.fromEntries(names.map((name, i) => [name, values[i]]));
}
