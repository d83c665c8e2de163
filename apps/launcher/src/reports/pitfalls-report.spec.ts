import { findPitfallPreset, type PitfallPreset, type Reconciliation, type RunResult, type RunView } from '@oversell/contracts';
import { failedRunRecord, pitfallRunRecord, pitfallsMarkdown, tallyLine, tallyPreset, type PitfallRunRecord, type PitfallsReport } from './pitfalls-report';

const preset = (name: string): PitfallPreset => findPitfallPreset(name)!;
const misDeletion = preset('mis-deletion');
const [broken, fix] = misDeletion.sides;

let ids = 0;
function ended(oversold: number | 'failed'): RunView {
  ids += 1;
  const params = { strategy: 'naive-setnx' } as RunView['params'];
  if (oversold === 'failed') return { id: `run-${ids}`, status: 'failed', params, failure: 'instance died', result: null } as RunView;
  const reconciliation = { initialStock: 40, remaining: 0, sold: 40 + oversold, orders: 40 + oversold, oversold, lost: 0, exclusionViolations: oversold ? 1 : 0, storesAgree: true } as Reconciliation;
  const result = {
    counts: { attempts: 200, sold: 40 + oversold, replayed: 0, sold_out: 160, lock_timeout: 3, conflict: 0, lock_lost: 0, fenced: 0, error: 0 },
    conflictRetries: 0,
    latency: { p50: 1, p90: 1, p99: 2, max: 3, mean: 1, count: 200 },
    durationSec: 4,
    timeline: [],
    lockEvents: [],
    driver: 'node',
    throughput: 100,
    instances: [],
    reconciliation,
    faults: [{ kind: 'pause', at: 'stock-written', instance: 'i0', requestId: 'q', startedAt: 1, endedAt: 2 }],
  } as RunResult;
  return { id: `run-${ids}`, status: 'completed', params, failure: null, result } as RunView;
}

/** Repetition i (1-based) of mis-deletion, the broken side's and the fix's oversold (or 'failed'). */
function repetitions(pairs: [number | 'failed', number | 'failed'][]): PitfallRunRecord[] {
  return pairs.flatMap(([b, f], i) => [pitfallRunRecord(misDeletion, broken, i + 1, ended(b)), pitfallRunRecord(misDeletion, fix, i + 1, ended(f))]);
}

describe('pitfallRunRecord', () => {
  it("keeps the run's id, its verdict by role and the figures the verdict reads", () => {
    const [showed, clean] = repetitions([[2, 0]]);
    expect(showed).toMatchObject({ preset: 'mis-deletion', role: 'broken', strategy: 'naive-setnx', repetition: 1, verdict: 'showed', oversold: 2, exclusionViolations: 1, lockTimeouts: 3, orders: 42, faultsFired: 1 });
    expect(clean).toMatchObject({ role: 'fix', strategy: 'uuid-lua', verdict: 'clean', oversold: 0 });
    expect(showed.runId).not.toBe(clean.runId);
    const [missed, notClean] = repetitions([[0, 1]]);
    expect([missed.verdict, notClean.verdict]).toEqual(['missed', 'not-clean']);
  });
});

describe('failedRunRecord', () => {
  it('records a side that never ended as failed, with its reason and the run id if it had one', () => {
    expect(failedRunRecord(misDeletion, broken, 2, 'could not be queued: fetch failed')).toMatchObject({
      preset: 'mis-deletion',
      role: 'broken',
      repetition: 2,
      runId: null,
      status: 'failed',
      verdict: 'failed',
      failure: 'could not be queued: fetch failed',
    });
    expect(failedRunRecord(misDeletion, fix, 1, 'lost while running', 'run-x')).toMatchObject({ runId: 'run-x', verdict: 'failed' });
  });
});

describe('tallyPreset', () => {
  it('counts the broken runs that showed and the fix runs that stayed clean; 19/20 and 20/20 meet the target', () => {
    const runs = repetitions(Array.from({ length: 20 }, (_, i): [number, number] => [i === 0 ? 0 : 3, 0]));
    const tally = tallyPreset(misDeletion, runs);
    expect(tally).toMatchObject({ broken: { showed: 19, runs: 20, failed: 0 }, fix: { clean: 20, runs: 20, failed: 0 }, brokenTargetMet: true, fixTargetMet: true });
    expect(tallyLine(tally)).toBe('broken 19/20 · fix 20/20 clean');
  });

  it('misses the target at 18/20 broken, or at one fix run that was not clean', () => {
    const twoMissed = repetitions(Array.from({ length: 20 }, (_, i): [number, number] => [i < 2 ? 0 : 3, 0]));
    expect(tallyPreset(misDeletion, twoMissed)).toMatchObject({ broken: { showed: 18 }, brokenTargetMet: false, fixTargetMet: true });
    const oneDirty = repetitions(Array.from({ length: 20 }, (_, i): [number, number] => [3, i === 5 ? 1 : 0]));
    expect(tallyPreset(misDeletion, oneDirty)).toMatchObject({ fix: { clean: 19, runs: 20 }, brokenTargetMet: true, fixTargetMet: false });
  });

  it('counts a failed run as neither showed nor clean, and says so', () => {
    const tally = tallyPreset(misDeletion, repetitions([[3, 0], ['failed', 'failed']]));
    expect(tally).toMatchObject({ broken: { showed: 1, runs: 2, failed: 1 }, fix: { clean: 1, runs: 2, failed: 1 }, brokenTargetMet: false, fixTargetMet: false });
    expect(tallyLine(tally)).toBe('broken 1/2 · fix 1/2 clean · 2 failed');
  });

  it("counts only its own preset's runs, and no runs at all meets no target", () => {
    const tally = tallyPreset(preset('double-click'), repetitions([[3, 0]]));
    expect(tally).toMatchObject({ broken: { runs: 0 }, fix: { runs: 0 }, brokenTargetMet: false, fixTargetMet: false });
  });
});

describe('a pitfall whose cost is throughput (hot-key)', () => {
  const hotKey = preset('hot-key');
  const [oneLock, segmented] = hotKey.sides;
  /** A completed hot-key run: units left unsold and the contended phase's units/s. */
  function hotKeyRun(remaining: number, unitsPerSec: number): RunView {
    const run = ended(0);
    const result = run.result!;
    const sold = 200 - remaining;
    return {
      ...run,
      result: {
        ...result,
        counts: { ...result.counts, lock_timeout: 0 },
        reconciliation: { ...result.reconciliation, initialStock: 200, remaining, sold, orders: sold },
        contendedPhase: { soldOut: remaining === 0, durationMs: 4000, attempts: 500, units: sold, unitsPerSec, p50: 1, p99: 2 },
      },
    };
  }
  const runs = [
    pitfallRunRecord(hotKey, oneLock, 1, hotKeyRun(80, 24)),
    pitfallRunRecord(hotKey, segmented, 1, hotKeyRun(0, 190)),
    pitfallRunRecord(hotKey, oneLock, 2, hotKeyRun(76, 25)),
    pitfallRunRecord(hotKey, segmented, 2, hotKeyRun(0, 200)),
    failedRunRecord(hotKey, segmented, 3, 'lost while running'),
  ];

  it("keeps each run's units/s and gives each side's mean over its completed runs", () => {
    expect(runs.map((r) => [r.verdict, r.unitsPerSec])).toEqual([
      ['showed', 24],
      ['clean', 190],
      ['showed', 25],
      ['clean', 200],
      ['failed', null],
    ]);
    const tally = tallyPreset(hotKey, runs);
    expect(tally.unitsPerSec).toEqual({ broken: 24.5, fix: 195 });
    expect(tallyLine(tally)).toBe('broken 2/2 · fix 2/3 clean · 1 failed · broken 24.5 vs fix 195 units/s');
  });

  it('shows no units/s for the other pitfalls', () => {
    expect(tallyPreset(misDeletion, repetitions([[3, 0]])).unitsPerSec).toBeUndefined();
  });

  it('puts the units/s of both sides in the markdown', () => {
    const tally = tallyPreset(hotKey, runs);
    const markdown = pitfallsMarkdown({ command: '', startedAt: '', finishedAt: '', machine: { cpus: 2, memoryGb: 4, node: 'v22' }, instances: 2, repeat: 3, allTargetsMet: false, presets: [tally], runs });
    expect(markdown).toContain('hot-key: its cost is throughput');
    expect(markdown).toContain('broken 24.5 vs fix 195 units/s');
    expect(markdown).toContain('| hot-key | segmented, 20 locks | fix | 3 | – | failed: lost while running | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | – |');
  });
});

describe('pitfallsMarkdown', () => {
  const runs = repetitions([[3, 0], [0, 0]]);
  const report: PitfallsReport = {
    command: 'npm run pitfalls -- --preset mis-deletion --repeat 2',
    startedAt: '',
    finishedAt: '',
    machine: { cpus: 2, memoryGb: 4, node: 'v22' },
    instances: 2,
    repeat: 2,
    allTargetsMet: false,
    presets: [tallyPreset(misDeletion, runs)],
    runs,
  };
  const markdown = pitfallsMarkdown(report);

  it("gives each preset a line with its counts and whether it met the target, naming the side that did not", () => {
    expect(markdown).toContain('| mis-deletion | oversold | 1/2 | 2/2 | 0 | NOT met (broken) |');
    expect(markdown).toContain('All targets NOT met.');
  });

  it('names every run with its verdict and figures', () => {
    for (const run of runs) expect(markdown).toContain(`| ${run.runId} | ${run.verdict} |`);
    expect(markdown).toContain(`| mis-deletion | naive-setnx, DEL on release | broken | 2 | ${runs[2].runId} | missed | 0 | 0 | 0 | 3 | 40 | 40 | 0 | 1 | – |`);
  });
});
