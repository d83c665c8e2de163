import type { FaultEvent, FaultSettings, ProductRunSettings, StrategyName } from '@oversell/contracts';
import { StockKeys } from '@oversell/stock';
import { freshProductId, until } from '@oversell/stock/testing';
import { RunFigureKeys } from '@oversell/lab';
import type { ServiceProcess } from './service-process';
import { runToItsEnd, useVictimAndPeer, victimIndexOf } from './victim-and-peer';

/**
 * The faults that need real processes: a stop-the-world pause freezes a whole process (its watchdog's
 * renewal timer too), and a crash kills one. Two service processes on the same keys; the victim has no
 * run worker, so the run survives its crash. Faults name it by its index among the live instances
 * (port order).
 */
const lab = useVictimAndPeer();

/** The victim's index among the live instances, which are in port order. */
const victimIndex = () => victimIndexOf(lab.victim, lab.peer);

async function reset(strategy: StrategyName, lockTtlMs: number, faults: FaultSettings[]): Promise<ProductRunSettings> {
  const productId = freshProductId();
  const response = await lab.peer.request(`/api/products/${productId}/reset`, { method: 'POST', body: { stock: 10, strategy, lockTtlMs, faults } });
  expect(response.status).toBe(200);
  return response.body as ProductRunSettings;
}

const order = (p: ServiceProcess, settings: ProductRunSettings) => p.request('/api/orders', { method: 'POST', body: { productId: settings.productId, quantity: 1, strategy: settings.strategy } });
const faultEvents = async (runId: string) => (await lab.redis.lrange(new RunFigureKeys(lab.keyPrefix, runId).faultEvents, 0, -1)).map((json) => JSON.parse(json) as FaultEvent);
const lockKey = (settings: ProductRunSettings) => new StockKeys(lab.keyPrefix, settings.productId).run(settings.runId).lock;

it('stop-the-world (2.5 s) while holding the watchdog lock (lease 500 ms): the renewal froze, the other instance gets the lock while the first still holds it', async () => {
  const settings = await reset('watchdog', 500, [{ kind: 'stop-the-world', at: 'stock-read', durationMs: 2500, instance: victimIndex() }]);
  expect(settings.faults).toEqual([expect.objectContaining({ kind: 'stop-the-world', instanceId: lab.victim.instanceId })]);
  let firstAnswered = false;
  const first = order(lab.victim, settings).finally(() => (firstAnswered = true));
  await until(async () => (await lab.redis.exists(lockKey(settings))) === 1, 'the victim holds the lock');
  // The peer waits at most LOCK_WAIT_TIMEOUT_MS: it can only get the lock because the frozen holder stopped renewing it.
  let second = await order(lab.peer, settings);
  for (let i = 0; second.body.error === 'lock_timeout' && i < 10; i++) second = await order(lab.peer, settings);
  expect(second.status).toBe(201);
  // Two holders: the peer sold while the first holder had not let go (its process was still frozen).
  expect(firstAnswered).toBe(false);
  await first;
  const [event] = await faultEvents(settings.runId);
  expect(event).toMatchObject({ kind: 'stop-the-world', at: 'stock-read', instance: lab.victim.instanceId });
  expect(event.endedAt! - event.startedAt).toBeGreaterThanOrEqual(2500 - 1);
});

it('a run with a crash between SETNX and EXPIRE (setnx-expire): the victim dies, its lock never expires, the next orders time out, and the run completes with the crash in its result', async () => {
  const run = await runToItsEnd(
    lab.peer,
    // Bounded by time, not count: the peer's connection keeps sending after the crash, however late the
    // victim's first order gets the lock (a count could be all sent by then, and nothing would wait).
    { strategy: 'setnx-expire', initialStock: 1000, lockTtlMs: 500, load: { connections: 2, durationSec: 3 }, faults: [{ kind: 'crash', at: 'lock-set-before-expire', instance: victimIndex() }] },
    90_000,
  );
  expect(run).toMatchObject({ status: 'completed', failure: null });
  expect(lab.victim.alive).toBe(false);
  const result = run.result!;
  expect(result.faults).toEqual([{ kind: 'crash', at: 'lock-set-before-expire', instance: lab.victim.instanceId, requestId: expect.any(String), startedAt: expect.any(Number), endedAt: null }]);
  const [crash] = result.faults!;
  expect(crash.startedAt).toBeGreaterThanOrEqual(Date.parse(run.startedAt!));
  expect(crash.startedAt).toBeLessThanOrEqual(Date.parse(run.finishedAt!));
  expect(result.crashedInstances).toEqual([lab.victim.instanceId]);
  // The dead holder's lock: set, never given its expiry (TTL -1): no order got the lock after the crash.
  const settings = { productId: run.productId, runId: run.id } as ProductRunSettings;
  expect(await lab.redis.ttl(lockKey(settings))).toBe(-1);
  expect(result.counts.lock_timeout).toBeGreaterThan(0);
  expect(result.lockEvents.filter((holding) => holding.acquiredAt > crash.startedAt)).toEqual([]);
}, 180_000);
