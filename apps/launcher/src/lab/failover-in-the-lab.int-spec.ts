import { findPitfallPreset, pitfallRunParams, type LockEvent, type PitfallSide, type RunView } from '@oversell/contracts';
import type { Lab } from './lab';
import { LabClient } from './lab-client';
import { runEnded } from '../commands/run-progress';
import { startTestLab } from '../testing/test-lab';

/**
 * The failover fault in a lab whose instances keep their Redis locks on a Sentinel group of the lab's own
 * (a master, its replica, three Sentinels on free ports: the lab starts it as it starts the other lock
 * services), the stock on the shared Redis or MySQL. Each run is the master-failover preset's own side,
 * and what is asserted is who held the lock when: the first holder was granted the lock before the
 * fault fired in its order at lock-acquired, and the fault returned once the promoted master served;
 * a second holder was granted the same lock after the master had died and before the first let go.
 */
const preset = findPitfallPreset('master-failover')!;
let lab: Lab;

beforeAll(async () => {
  lab = await startTestLab(2, { services: ['redis-sentinel'] });
}, 180_000);

afterAll(async () => {
  await lab?.stop();
});

/** The preset's side of this strategy, queued through the gateway and followed to its end, as `npm run pitfalls` does. */
async function runSide(strategy: PitfallSide['strategy']): Promise<RunView> {
  const side = preset.sides.find((s) => s.strategy === strategy)!;
  const client = new LabClient(lab.gatewayUrl);
  return runEnded(client, await client.queueRun(pitfallRunParams(side, preset.name)));
}

/** The failover's event, the first holder's holding (the order it fired in) and the holdings granted while that one held. */
function whoHeldWhen(run: RunView) {
  expect(run.failure ?? null).toBeNull();
  const faults = run.result!.faults ?? [];
  expect(faults).toEqual([expect.objectContaining({ kind: 'failover', at: 'lock-acquired' })]);
  const [failover] = faults;
  const first = run.result!.lockEvents.find((event) => event.requestId === failover.requestId)!;
  const during = (other: LockEvent) => other !== first && other.lockKey === first.lockKey && other.acquiredAt < first.releasedAt && other.releasedAt > first.acquiredAt;
  return { failover, first, beside: run.result!.lockEvents.filter(during) };
}

it('uuid-lua: the lock is granted again while its first holder is inside, and the last unit is sold twice', async () => {
  const run = await runSide('uuid-lua');
  const { failover, first, beside } = whoHeldWhen(run);
  // Granted, then failed over in that very holding; the failover takes Sentinel's 500 ms down-after at least.
  expect(first.acquiredAt).toBeLessThanOrEqual(failover.startedAt);
  expect(failover.endedAt! - failover.startedAt).toBeGreaterThanOrEqual(500);
  expect(first.releasedAt).toBeGreaterThan(failover.endedAt!);
  // Granted by the promoted replica, after the master died, while the first still held: the second holder,
  // and the orders after it that found the unit sold (they too overlap the first holder's business time).
  expect(beside.length).toBeGreaterThanOrEqual(1);
  expect(beside.every((other) => other.acquiredAt > failover.startedAt)).toBe(true);
  expect(run.result!.reconciliation).toMatchObject({ initialStock: 1, sold: 2, oversold: 1 });
}, 120_000);

it('watchdog-fenced-mysql: the lock is granted twice all the same, and the row refuses the second holder', async () => {
  // After the first run's failover: the old master is back as the new one's replica, the group whole again.
  const run = await runSide('watchdog-fenced-mysql');
  const { failover, first, beside } = whoHeldWhen(run);
  expect(first.acquiredAt).toBeLessThanOrEqual(failover.startedAt);
  expect(beside.length).toBeGreaterThanOrEqual(1);
  expect(beside.every((other) => other.acquiredAt > failover.startedAt)).toBe(true);
  expect(run.result!.counts.fenced).toBeGreaterThanOrEqual(1);
  expect(run.result!.reconciliation).toMatchObject({ initialStock: 1, sold: 1, oversold: 0 });
}, 120_000);
