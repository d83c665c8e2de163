import { findPitfallPreset, pitfallRunParams, pitfallShown, type PitfallPreset, type PitfallSide, type RunParams, type RunView } from '@oversell/contracts';
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Lab } from './lab';
import { startTestLab, testLabEnv } from './testing/test-lab';

/**
 * The crash presets, as the Pitfalls view sends them, in a real lab of 2 instances behind the gateway:
 * the crash never kills the instance whose worker runs the run, whichever port that is, so every run
 * completes (the launcher restarts the crashed one meanwhile) and still shows its pitfall.
 */
const CRASH_PRESETS = ['crash-between-setnx-and-expire', 'dead-holder-no-ttl'].map((name) => findPitfallPreset(name)!);
const SIDES: [PitfallPreset, PitfallSide][] = CRASH_PRESETS.flatMap((preset) => preset.sides.map((side): [PitfallPreset, PitfallSide] => [preset, side]));
/** Strategies whose lock is a plain Redis key: a dead holder leaves it with no TTL. */
const REDIS_KEY_LOCKS = new Set(['setnx-expire', 'setnx-no-ttl']);

async function run(lab: Lab, params: RunParams): Promise<RunView> {
  const response = await fetch(`${lab.gatewayUrl}/api/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
  const queued = (await response.json()) as RunView;
  expect(response.status).toBe(201);
  for (;;) {
    const view = (await (await fetch(`${lab.gatewayUrl}/api/runs/${queued.id}`)).json()) as RunView;
    if (view.status === 'completed' || view.status === 'failed') return view;
    await sleep(200);
  }
}

describe.each([
  [0, 'the lower port'],
  [1, 'the higher port'],
])('the run worker on instance %i (%s)', (runnerIndex) => {
  const env = testLabEnv();
  let lab: Lab;
  let redis: Redis;

  beforeAll(async () => {
    // One crash per run, five runs: more restarts within a minute than the launcher's default allows.
    lab = await startTestLab(2, { env, runWorker: runnerIndex, maxRestartsPerMinute: 20 });
    redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  });

  afterAll(async () => {
    await lab?.stop();
    await redis?.quit();
  });

  it.each(SIDES.map(([preset, side]) => [preset.name, side.label, preset, side] as const))('%s, %s: completes; the crash hit the other instance; the pitfall shows on the broken side only', async (_, __, preset, side) => {
    const runner = lab.instances[runnerIndex];
    const victim = lab.instances[1 - runnerIndex];
    const restartsBefore = victim.restarts;

    const done = await run(lab, pitfallRunParams(side, preset.name));

    expect(done).toMatchObject({ status: 'completed', failure: null });
    const result = done.result!;
    expect(result.executor).toBe(runner.spec.id);
    // Every crash hit the instance that does not run the run. A broken side passes the fault point, so
    // its crash fired; a fix may have no such point (naive-setnx's one-command acquire has no gap).
    const crashes = result.faults!.filter((fault) => fault.kind === 'crash' && fault.at === side.settings.faults![0].at);
    expect(result.faults).toEqual(crashes);
    if (side.role === 'broken') expect(crashes).toHaveLength(1);
    expect(crashes.map((crash) => crash.instance)).toEqual(crashes.map(() => victim.spec.id));
    expect(result.crashedInstances ?? []).toEqual(crashes.map(() => victim.spec.id));
    expect(pitfallShown(preset, side, done)).toBe(side.role === 'broken');
    if (side.role === 'broken' && REDIS_KEY_LOCKS.has(side.strategy)) {
      // The dead holder's lock (StockKeys' layout: the launcher does not import the stock lib) never expires.
      expect(await redis.pttl(`${env.REDIS_KEY_PREFIX}:{p${done.productId}}:${done.id}:lock`)).toBe(-1);
    }
    // The launcher brought the victim back: the next run has 2 live instances again.
    while (crashes.length && (victim.restarts === restartsBefore || !victim.up)) await sleep(100);
  });
});
