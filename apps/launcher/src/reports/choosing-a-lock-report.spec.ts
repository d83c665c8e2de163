import { choosingALock, findPitfallPreset, type BenchInput, type ChoiceInputs, type LockBenchInput, type LockChoice, type PitfallVerdict, type StrategyDescription, type StrategyName } from '@oversell/contracts';
import { choosingALockMarkdown } from './choosing-a-lock-report';
import { parseChoosingALockArgs, writeChoosingALock } from '../commands/choosing-a-lock';
import { failedRunRecord, type PitfallRunRecord, type PitfallsReport } from './pitfalls-report';

const choice = (benchLock?: string): LockChoice => ({
  ...(benchLock ? { benchLock } : {}),
  runsOn: 'one Redis',
  complexity: 'low',
  reliability: 'exclusive within the TTL',
  underFault: { crash: 'expires with its TTL', pause: 'double grant', 'store-cut': 'double grant', failover: 'lost with the master' },
});

const described = (name: StrategyName, withChoice?: LockChoice): StrategyDescription => ({
  name,
  title: `${name} title`,
  kind: 'lock',
  store: 'redis',
  settings: [],
  lease: 'fixed',
  safe: true,
  description: '',
  guarantee: '',
  pitfall: '',
  reproduce: '',
  symptom: '',
  steps: [],
  scripts: [],
  ...(withChoice ? { choice: withChoice } : {}),
});

const DESCRIPTIONS = [described('no-lock'), described('uuid-lua', choice('uuid-lua')), described('watchdog-fenced', choice()), described('lua-decrement', choice())];

/** One ended run of a preset's side that ran `strategy`, with its verdict and units oversold. */
function pitfallRun(presetName: string, strategy: StrategyName, verdict: PitfallVerdict, oversold: number): PitfallRunRecord {
  const preset = findPitfallPreset(presetName)!;
  const side = preset.sides.find((s) => s.strategy === strategy)!;
  return { ...failedRunRecord(preset, side, 1, ''), status: 'completed', failure: null, verdict, oversold };
}

/** A strategies bench report of these completed rows. */
const bench = (...rows: BenchInput['rows']): BenchInput => ({
  command: 'npm run bench -- --duration 3',
  startedAt: '2026-11-24T11:16:00.000Z',
  machine: { cpus: 2, memoryGb: 24, node: 'v20.20.2', loadAverage: [30, 27, 22] },
  rows,
});
const completed = (strategy: StrategyName, throughput: number, p99: number): BenchInput['rows'][number] => ({ strategy, status: 'completed', throughput, p99, oversold: 0 });

const LOCKS: LockBenchInput = {
  command: 'npm run bench:locks -- --seconds 3',
  startedAt: '2026-11-24T10:55:00.000Z',
  machine: { cpus: 2, memoryGb: 24, node: 'v20.20.2', loadAverage: [6.5, 5.1, 3] },
  rows: [{ lock: 'uuid-lua', sectionsPerSec: 87.04, waitMs: { p99: 4751.359 }, timeouts: 0, errors: 2 }],
};

const PITFALLS: PitfallsReport = {
  command: 'npm run pitfalls -- --preset mis-deletion,lost-lock-on-store-cut',
  startedAt: '2026-11-24T11:00:00.000Z',
  finishedAt: '2026-11-24T11:02:00.000Z',
  machine: { cpus: 2, memoryGb: 24, node: 'v20.20.2' },
  instances: 2,
  repeat: 2,
  allTargetsMet: false,
  presets: [],
  runs: [
    // mis-deletion pauses its holder after the write (a late release): no column's fault.
    pitfallRun('mis-deletion', 'uuid-lua', 'clean', 0),
    pitfallRun('mis-deletion', 'uuid-lua', 'not-clean', 2),
    // gc-pause-past-the-lease freezes the holder at stock-read, before its write: the fix clean in 1 of 2.
    pitfallRun('gc-pause-past-the-lease', 'watchdog-fenced', 'clean', 0),
    pitfallRun('gc-pause-past-the-lease', 'watchdog-fenced', 'not-clean', 2),
    // lost-lock-on-store-cut cuts the store: uuid-lua is its broken side, showing it once.
    pitfallRun('lost-lock-on-store-cut', 'uuid-lua', 'showed', 3),
  ],
};

const INPUTS: ChoiceInputs = {
  bench: { file: 'bench-results/latest.json', report: bench(completed('uuid-lua', 180.4, 912.25), completed('lua-decrement', 1301, 40)) },
  locks: { file: 'bench-results/locks-latest.json', report: LOCKS },
  pitfalls: { file: 'bench-results/pitfalls-x.json', report: PITFALLS },
};

/** The cells of `strategy`'s line in the markdown table that follows `heading`. */
function cells(markdown: string, heading: string, strategy: string): string[] {
  const lines = markdown.split('\n').slice(markdown.split('\n').indexOf(heading));
  return lines.find((l) => l.startsWith(`| \`${strategy}\` |`))!.split('|').slice(2, -1).map((c) => c.trim());
}

describe('choosing a lock', () => {
  it('compares the strategies whose descriptions have a choice, with their figures from the reports', () => {
    const data = choosingALock(DESCRIPTIONS, INPUTS, 'npm run choosing-a-lock', new Date('2026-11-24T12:00:00Z'));

    expect(data.rows.map((r) => r.strategy)).toEqual(['uuid-lua', 'watchdog-fenced', 'lua-decrement']);
    const [uuidLua, fenced, luaDecrement] = data.rows;
    expect(uuidLua).toMatchObject({ ordersPerSec: 180.4, p99Ms: 912.25, oversold: 0, lockSectionsPerSec: 87.04, lockWaitP99Ms: 4751.359, lockTimeouts: 0, lockErrors: 2 });
    // No lock of its own in the lock bench: not measured there.
    expect(luaDecrement).toMatchObject({ ordersPerSec: 1301, lockSectionsPerSec: null, lockWaitP99Ms: null });
    // Each preset's fault decides the column: gc-pause-past-the-lease pauses before the write, lost-lock-on-store-cut
    // cuts the store. mis-deletion's pause comes after the write: uuid-lua's clean fix there says nothing of a holder
    // paused between its read and its write, which by design oversells.
    expect(fenced.underFault.pause).toEqual([{ preset: 'gc-pause-past-the-lease', role: 'fix', expected: 1, runs: 2, oversold: 2, shows: 'oversold' }]);
    expect(uuidLua.underFault.pause).toEqual([]);
    expect(uuidLua.underFault['store-cut']).toEqual([{ preset: 'lost-lock-on-store-cut', role: 'broken', expected: 1, runs: 1, oversold: 3, shows: 'oversold' }]);
    expect(uuidLua.underFault.crash).toEqual([]);

    const markdown = choosingALockMarkdown(data);
    expect(cells(markdown, '## Performance', 'uuid-lua')).toEqual(['180', '912.3', '0', '87', '4751.4', '0', '2']);
    expect(cells(markdown, '## Performance', 'lua-decrement')).toEqual(['1301', '40.0', '0', 'not measured', 'not measured', 'not measured', 'not measured']);
    expect(cells(markdown, '### Holder paused past the lease', 'watchdog-fenced')).toEqual(['double grant', 'gc-pause-past-the-lease, fix: clean 1/2 (oversold 2)']);
    expect(cells(markdown, '### Holder paused past the lease', 'uuid-lua')).toEqual(['double grant', 'not measured']);
    expect(cells(markdown, '### Store out of reach', 'uuid-lua')).toEqual(['double grant', 'lost-lock-on-store-cut, broken: showed oversold 1/1 (oversold 3)']);
    expect(cells(markdown, '### Holder crashes', 'uuid-lua')).toEqual(['expires with its TTL', 'not measured']);
    // The runs the figures come from, with the machine's load at the time.
    expect(markdown).toContain('`npm run bench:locks -- --seconds 3`, started 2026-11-24T10:55:00.000Z, 2 cores, 24 GB, Node v20.20.2, load average 6.5 / 5.1 / 3');
    expect(markdown).toContain('`npm run pitfalls -- --preset mis-deletion,lost-lock-on-store-cut`, started 2026-11-24T11:00:00.000Z, 2 cores, 24 GB, Node v20.20.2, load not recorded');
  });

  it('says "not measured" for every figure a report does not have, never a number', () => {
    const failedBench = bench({ ...completed('uuid-lua', 99, 5), status: 'failed' });
    const data = choosingALock(DESCRIPTIONS, { bench: { file: 'b.json', report: failedBench }, locks: null, pitfalls: null }, 'npm run choosing-a-lock', new Date());

    expect(data.rows[0]).toMatchObject({ ordersPerSec: null, p99Ms: null, oversold: null, lockSectionsPerSec: null, lockWaitP99Ms: null, lockTimeouts: null, lockErrors: null });
    const markdown = choosingALockMarkdown(data);
    expect(cells(markdown, '## Performance', 'uuid-lua')).toEqual(Array(7).fill('not measured'));
    for (const heading of ['### Holder crashes', '### Holder paused past the lease', '### Store out of reach', '### Redis master fails over']) {
      expect(cells(markdown, heading, 'uuid-lua')[1]).toBe('not measured');
    }
    expect(markdown).toContain('- Bare locks (sections/s, wait p99): not measured (no report found)');
  });

  it('refuses a report named on the command line that is not there, before writing anything', async () => {
    const options = parseChoosingALockArgs(['--bench', '/nonexistent/bench.json', '--doc', '/nonexistent/doc.md']);
    await expect(writeChoosingALock(options, () => undefined)).rejects.toThrow('no such report: /nonexistent/bench.json');
  });
});
