import type { FaultEvent, FaultSettings, LockEvent, StrategyName } from '@oversell/contracts';
import { Gate } from '@oversell/locks/testing';
import { LockEvents, type FaultHook } from '@oversell/stock';
import { createStockTestApp, freshKeyPrefix, freshProductId, until, type StockTestApp } from '@oversell/stock/testing';
import { RunFigureKeys } from '../redis-keys';
import { RunFaultInjector } from './fault-injector';

/**
 * The run's fault injector in two instances of the stock module (A and B, their own caches and
 * connections, the same Redis keys and MySQL), each fault doing for real what it says, at its point.
 * Test hooks (run before the injector at each point) only gate orders to set up the moment.
 */
const keyPrefix = freshKeyPrefix();
const hooks: Record<'A' | 'B', FaultHook | null> = { A: null, B: null };
let a: StockTestApp;
let b: StockTestApp;
const holdings: { runId: string; event: LockEvent }[] = [];

/** A's orders give up on a held lock sooner than B's: B's can outwait a lease that A's cannot. */
const WAIT_MS = { A: 500, B: 3000 };

beforeAll(async () => {
  const instance = (id: 'A' | 'B') =>
    createStockTestApp({ keyPrefix, instanceId: id, lockWaitTimeoutMs: WAIT_MS[id], faultInjector: RunFaultInjector, faultHooks: [(point, settings, requestId) => hooks[id]?.(point, settings, requestId)] });
  [a, b] = await Promise.all([instance('A'), instance('B')]);
  for (const app of [a, b]) app.app.get(LockEvents).subscribe((runId, _strategy, event) => holdings.push({ runId, event }));
});

afterEach(() => {
  hooks.A = hooks.B = null;
});

afterAll(async () => {
  const keys = await a?.redis.keys(`${keyPrefix}:*`);
  if (keys?.length) await a.redis.del(...keys);
  await Promise.all([a?.close(), b?.close()]);
});

async function reset(strategy: StrategyName, faults: FaultSettings[], lockTtlMs = 5000) {
  const productId = freshProductId();
  const settings = await a.reset.reset(productId, { stock: 100, strategy, lockTtlMs, businessDelayMs: 0, faults });
  const order = (app: StockTestApp) => app.placement.place({ productId, quantity: 1, strategy });
  const faultEvents = async () => (await a.redis.lrange(new RunFigureKeys(keyPrefix, settings.runId).faultEvents, 0, -1)).map((json) => JSON.parse(json) as FaultEvent);
  const holdingsOfRun = () => holdings.filter((h) => h.runId === settings.runId).map((h) => h.event);
  return { productId, settings, order, faultEvents, holdingsOfRun };
}

/** Resolves at the first passage of `point` in the instance, and stops that order there until `gate` opens. */
function stopFirstAt(point: string, gate: Gate): FaultHook {
  let stopped = false;
  return (at) => {
    if (at !== point || stopped) return;
    stopped = true;
    return gate.pass();
  };
}

describe('how often, counted over the instances together', () => {
  it('every: 3 fires at passages 3, 6 and 9 of nine orders sent alternately to A and B', async () => {
    const run = await reset('uuid-lua', [{ kind: 'pause', at: 'lock-acquired', durationMs: 1, every: 3 }]);
    for (let i = 0; i < 9; i++) expect((await run.order(i % 2 ? b : a)).result.outcome).toBe('sold');
    const passages = run.holdingsOfRun().sort((x, y) => x.acquiredAt - y.acquiredAt);
    const events = await run.faultEvents();
    expect(events.map((e) => passages.findIndex((p) => p.requestId === e.requestId) + 1)).toEqual([3, 6, 9]);
    // Passage 3 and 9 were A's orders, 6 was B's: each event names the instance it fired in.
    expect(events.map((e) => e.instance)).toEqual(['A', 'B', 'A']);
    // The passages' counter goes with the run's other figures, not kept for good.
    const counter = new RunFigureKeys(keyPrefix, run.settings.runId).faultPassages(0);
    expect(await a.redis.get(counter)).toBe('9');
    expect(await a.redis.ttl(counter)).toBeGreaterThan(0);
  });

  it('once fires exactly once over both instances, at the first passage', async () => {
    const run = await reset('uuid-lua', [{ kind: 'pause', at: 'lock-acquired', durationMs: 1, once: true }]);
    await Promise.all([0, 1, 2, 3, 4, 5].map((i) => run.order(i % 2 ? b : a)));
    const events = await run.faultEvents();
    expect(events).toHaveLength(1);
    const first = run.holdingsOfRun().sort((x, y) => x.acquiredAt - y.acquiredAt)[0];
    expect(events[0]).toMatchObject({ kind: 'pause', at: 'lock-acquired', instance: first.instance, requestId: first.requestId });
  });

  it('a fault on one instance counts and fires only there', async () => {
    const run = await reset('uuid-lua', [{ kind: 'pause', at: 'lock-acquired', durationMs: 1, every: 1, instanceId: 'B' }]);
    for (let i = 0; i < 4; i++) await run.order(i % 2 ? b : a);
    expect((await run.faultEvents()).map((e) => e.instance)).toEqual(['B', 'B']);
  });
});

describe('pause between the check and the DEL of uuid-check-del (lease 1200 ms, pause 2500 ms on A)', () => {
  /**
   * A's release has checked the lock is its own and pauses; its lease runs out, B's order takes the
   * lock (and is held inside, after reading the stock); A's DEL then deletes B's lock, and A's next
   * order gets in beside B's.
   */
  async function scenario(faults: FaultSettings[]) {
    const run = await reset('uuid-check-del', faults, 1200);
    const atGap = new Gate();
    hooks.A = (point) => (point === 'release-checked-before-del' ? void atGap.pass() : undefined);
    const inside = new Gate();
    hooks.B = stopFirstAt('stock-read', inside);
    const first = run.order(a);
    await atGap.arrived();
    const second = run.order(b);
    await first;
    await inside.arrived();
    const third = await run.order(a);
    inside.release();
    const outcomes = [(await first).result.outcome, (await second).result.outcome, third.result.outcome];
    return { outcomes, inventory: await a.inventory.inventory(run.productId), holdings: run.holdingsOfRun(), events: await run.faultEvents() };
  }

  it('A deletes the lock B holds: A\'s next order gets in beside B\'s, and one unit is sold twice', async () => {
    const { outcomes, inventory, holdings, events } = await scenario([{ kind: 'pause', at: 'release-checked-before-del', durationMs: 2500, instanceId: 'A' }]);
    expect(outcomes).toEqual(['sold', 'sold', 'sold']);
    expect(inventory).toMatchObject({ orders: 3, remaining: 98, storesAgree: false });
    const [first, second, third] = holdings.sort((x, y) => x.acquiredAt - y.acquiredAt);
    expect([first.instance, second.instance, third.instance]).toEqual(['A', 'B', 'A']);
    // Exclusion violated: A's second order held the lock while B's still did.
    expect(third.acquiredAt).toBeLessThan(second.releasedAt);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'pause', at: 'release-checked-before-del', instance: 'A', requestId: first.requestId });
    expect(events[0].endedAt! - events[0].startedAt).toBeGreaterThanOrEqual(2500 - 1);
  });

  it('without the pause, A\'s next order waits for B\'s and times out: no unit sold twice', async () => {
    const { outcomes, inventory, events } = await scenario([]);
    expect(outcomes).toEqual(['sold', 'sold', 'lock_timeout']);
    expect(inventory).toMatchObject({ orders: 2, remaining: 98, storesAgree: true });
    expect(events).toEqual([]);
  });
});

describe('clock-offset on one instance, setnx-getset (lease 5 s)', () => {
  async function peerOrdersWhileAHolds(offsetOn: 'A' | 'B') {
    const run = await reset('setnx-getset', [{ kind: 'clock-offset', offsetMs: 60_000, instance: 0, instanceId: offsetOn }]);
    const inside = new Gate();
    hooks.A = stopFirstAt('stock-read', inside);
    const first = run.order(a);
    await inside.arrived();
    const second = await run.order(b);
    inside.release();
    return { outcomes: [(await first).result.outcome, second.result.outcome], inventory: await a.inventory.inventory(run.productId), holdings: run.holdingsOfRun() };
  }

  it('B, 60 s ahead, reads A\'s live stamp as expired and takes the lock over: two holders', async () => {
    const { outcomes, holdings } = await peerOrdersWhileAHolds('B');
    expect(outcomes).toEqual(['sold', 'sold']);
    const byInstance = Object.fromEntries(holdings.map((h) => [h.instance, h]));
    expect(byInstance.B.acquiredAt).toBeLessThan(byInstance.A.releasedAt);
    expect(byInstance.A.expired).toBe(true);
  });

  it('the offset on A instead leaves B on the true clock: B waits and times out', async () => {
    const { outcomes, inventory } = await peerOrdersWhileAHolds('A');
    expect(outcomes).toEqual(['sold', 'lock_timeout']);
    expect(inventory).toMatchObject({ orders: 1, storesAgree: true });
  });
});

describe('stop-the-world past the lease at stock-read, watchdog (lease 300 ms, pause 900 ms on A)', () => {
  it('the holder goes on at once after the pause, as after a GC pause: it writes what it read before its overdue renewal can tell it the lock is gone', async () => {
    const run = await reset('watchdog', [{ kind: 'stop-the-world', at: 'stock-read', once: true, durationMs: 900 }], 300);
    const { result } = await run.order(a);
    // lock_lost would mean the renewal ran between the pause and the write: a pause no GC makes.
    expect(result.outcome).toBe('sold');
    const events = async () => (await run.faultEvents()).filter((e) => e.kind === 'stop-the-world');
    // Written in the background now: the order's answer can come first.
    await until(async () => (await events()).length > 0, 'the stop-the-world is recorded');
    expect((await events()).map((e) => [e.instance, e.endedAt! - e.startedAt >= 900 - 1])).toEqual([['A', true]]);
  });
});
