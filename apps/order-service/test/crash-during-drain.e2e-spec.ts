import { runToItsEnd, useVictimAndPeer, victimIndexOf } from './victim-and-peer';

/**
 * A crash fault that fires during the end-of-run drain, after the run worker read the run's crashes:
 * the pitfall lab's CI flake (dead-holder-no-ttl failed "instance-2 did not report its figures"). Two
 * service processes on the same keys; the victim has no run worker. The victim's order pauses at
 * lock-acquired past the load tool's request timeout (autocannon: 10 s), so the load ends with that
 * order still in flight; the flush then waits on the victim's drain, and the crash at that order's
 * stock-read kills it mid-drain. The run must not fail for a death its own fault caused.
 */
const lab = useVictimAndPeer();
/**
 * Well past the load's end, within the drain's wait (LOCK_WAIT_TIMEOUT_MS + 15 s from the flush). The load
 * ends about 12 s after the pause began: the load tool's 10 s request timeout, then the victim's other
 * orders each wait out the lock. (14 s left a 2 s margin, which a loaded machine could eat.)
 */
const PAUSE_MS = 20_000;

it('a crash fault passed by an order still in flight when the load ended: the run completes with the victim among its crashed instances', async () => {
  // Faults name the victim by its index among the live instances, in port order.
  const instance = victimIndexOf(lab.victim, lab.peer);
  const run = await runToItsEnd(lab.peer, {
    strategy: 'setnx-expire',
    initialStock: 20,
    // Outlasts the pause: no other order gets the lock, so only the paused one passes stock-read.
    lockTtlMs: 30_000,
    load: { connections: 2, totalRequests: 8 },
    faults: [
      { kind: 'pause', at: 'lock-acquired', durationMs: PAUSE_MS, once: true, instance },
      { kind: 'crash', at: 'stock-read', once: true, instance },
    ],
  });
  expect(run).toMatchObject({ status: 'completed', failure: null });
  expect(lab.victim.alive).toBe(false);
  const result = run.result!;
  expect(result.crashedInstances).toEqual([lab.victim.instanceId]);
  const [pause, crash] = result.faults!;
  expect(pause).toMatchObject({ kind: 'pause', at: 'lock-acquired', instance: lab.victim.instanceId });
  // The paused order itself, once its pause was over: the load had given up on it by then.
  expect(crash).toMatchObject({ kind: 'crash', at: 'stock-read', instance: lab.victim.instanceId, requestId: pause.requestId });
  expect(crash.startedAt).toBeGreaterThanOrEqual(pause.endedAt!);
  // During the drain: after the load ended (the run's measured time starts a few ms after its startedAt).
  expect(crash.startedAt).toBeGreaterThan(Date.parse(run.startedAt!) + result.durationSec * 1000);
}, 300_000);
