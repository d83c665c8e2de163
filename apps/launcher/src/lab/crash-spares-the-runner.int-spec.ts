import { findPitfallPreset, pitfallRunParams, pitfallShown, type PitfallSide, type RunParams, type RunView } from '@oversell/contracts';
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Instance } from './instance';
import type { Lab } from './lab';
import { LabClient } from './lab-client';
import { startTestLab, testLabEnv } from '../testing/test-lab';

/**
 * The crash presets, as the Pitfalls view sends them, in a real lab of 2 instances behind the gateway:
 * the crash never kills the instance whose worker runs the run, whichever port that is, so every run
 * completes (the launcher restarts the crashed one meanwhile) and still shows its pitfall. One preset
 * per port: pitfalls.int-spec runs both presets again, with the worker where the lab puts it.
 */
const RUNNER_AND_PRESET = [
  [0, 'the lower port', findPitfallPreset('crash-between-setnx-and-expire')!],
  [1, 'the higher port', findPitfallPreset('dead-holder-no-ttl')!],
] as const;
/** Strategies whose lock is a plain Redis key: a dead holder leaves it with no TTL. */
const REDIS_KEY_LOCKS = new Set(['setnx-expire', 'setnx-no-ttl']);

/**
 * Queues the run through the gateway, as the Pitfalls view does, and follows it on the instance running
 * it: through the gateway a poll may land on the crashed instance in the moment before the launcher
 * notices it died.
 */
async function runToTheEnd(lab: Lab, runner: Instance, params: RunParams): Promise<RunView> {
  let view = await new LabClient(lab.gatewayUrl).queueRun(params);
  while (view.status !== 'completed' && view.status !== 'failed') {
    await sleep(200);
    view = await new LabClient(runner.url).run(view.id);
  }
  return view;
}

describe.each(RUNNER_AND_PRESET)('the run worker on instance %i (%s)', (runnerIndex, _port, preset) => {
  const env = testLabEnv();
  let lab: Lab;
  let redis: Redis;

  beforeAll(async () => {
    // One crash per run, runs back to back: more restarts within a minute than the launcher's default allows.
    lab = await startTestLab(2, { env, runWorker: runnerIndex, maxRestartsPerMinute: 20 });
    redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  });

  afterAll(async () => {
    await lab?.stop();
    await redis?.quit();
  });

  it.each(preset.sides.map((side) => [preset.name, side.label.en, side] as const))('%s, %s: completes; the crash hit the other instance; the pitfall shows on the broken side only', async (_, __, side: PitfallSide) => {
    const runner = lab.instances[runnerIndex];
    const victim = lab.instances[1 - runnerIndex];
    // The launcher brought back the instance the last run crashed: a crash needs 2 live instances.
    while (!lab.instances.every((instance) => instance.up)) await sleep(100);
    const restartsBefore = victim.restarts;

    const done = await runToTheEnd(lab, runner, pitfallRunParams(side, preset.name));

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
    // The launcher restarts the crashed instance (the run did not fail for it).
    while (crashes.length && victim.restarts === restartsBefore) await sleep(100);
  });
});
