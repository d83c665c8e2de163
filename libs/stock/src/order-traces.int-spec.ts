import { traceOfRun, type ProductRunSettings, type RunTrace, type SequenceStep } from '@oversell/contracts';
import { preciseNow } from '@oversell/locks';
import { OrderTraces } from './order-traces';
import { StockKeys } from './redis/stock-keys';
import { freshProductId, PauseNextOrder, until, useStockTestApp } from './testing';

/**
 * The trace the run result carries, from real orders on the real stores: each order's steps as the
 * library notes them, made into the trace of the first unit sold twice with the moves journal's help.
 * The interleavings are the articles' own, held exactly with pauses at fault points.
 */
const atWrite = new PauseNextOrder('stock-written');
const atRead = new PauseNextOrder('stock-read');
const lab = useStockTestApp({ faultHooks: [atWrite.hook, atRead.hook] });
const LEASE_MS = 150;

let steps: SequenceStep[];
let stopTracing: () => void;
beforeEach(() => {
  steps = [];
  stopTracing = lab.app.app.get(OrderTraces).listen((_settings, requestId, step) => steps.push({ actor: requestId, instance: 'test', at: preciseNow(), ...step }));
});
afterEach(() => stopTracing());

async function reset(strategy: 'naive-setnx' | 'uuid-lua' | 'watchdog'): Promise<{ settings: ProductRunSettings; lock: string; order(): ReturnType<typeof lab.app.placement.place> }> {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock: 5, strategy, lockTtlMs: LEASE_MS, businessDelayMs: 0 });
  return { settings, lock: StockKeys.of(lab.keyPrefix, settings).lock, order: () => lab.app.placement.place({ productId, quantity: 1, strategy }) };
}

/** Waits until Redis has expired the key: the state the pitfall needs, observed rather than slept for. */
const untilGone = (key: string) => until(async () => (await lab.app.redis.exists(key)) === 0, `${key} expired`);

async function traceOf(settings: ProductRunSettings): Promise<RunTrace | undefined> {
  const { moves, remaining } = await lab.app.inventory.inventory(settings.productId);
  return traceOfRun({ steps, sameRead: moves?.firstSameRead, journalSaysNone: !!moves && !moves.firstSameRead, lockTimeouts: 0, remaining });
}

const line = (trace: RunTrace) => trace.steps.map((s) => `${s.actor} ${s.target} ${s.action}${s.value === undefined ? '' : ` ${s.value}`}${s.note ? ` (${s.note})` : ''}`);

it("naive-setnx: the first holder's DEL removes the second holder's lock, a third order gets in and sells the unit the second sells", async () => {
  const { settings, lock, order } = await reset('naive-setnx');
  const first = await atWrite.pause(order);
  await untilGone(lock);
  const second = await atRead.pause(order);
  expect((await first.resume()).result.outcome).toBe('sold');
  expect((await order()).result.outcome).toBe('sold');
  expect((await second.resume()).result.outcome).toBe('sold');

  const trace = (await traceOf(settings))!;
  expect(trace).toMatchObject({ kind: 'double-sale', stockLeft: 3 });
  expect(trace.orders.map((o) => o.actor)).toEqual(['A', 'B', 'C']);
  const drawn = line(trace);
  // In time order: A's lease runs out, B is granted, A's DEL removes B's lock, C is granted and reads what B read.
  const at = (text: string) => drawn.indexOf(text);
  expect(at('A expiry lease ran out')).toBeLessThan(at(`B lock granted ${LEASE_MS}`));
  expect(at(`B lock granted ${LEASE_MS}`)).toBeLessThan(at('A lock DEL B (not-its-own)'));
  expect(at('A lock DEL B (not-its-own)')).toBeLessThan(at(`C lock granted ${LEASE_MS}`));
  expect(drawn.filter((text) => text === 'B stock GET 4' || text === 'C stock GET 4')).toHaveLength(2);
  expect(drawn).toContain('B stock SET 3 (sold-twice)');
  expect(drawn).toContain('C stock SET 3');
  expect(at('C stock SET 3')).toBeLessThan(at('B stock SET 3 (sold-twice)'));
});

it('uuid-lua: an order whose business outlives its lease writes the value a second order wrote from the same read', async () => {
  const { settings, lock, order } = await reset('uuid-lua');
  const first = await atRead.pause(order);
  await untilGone(lock);
  expect((await order()).result.outcome).toBe('sold');
  expect((await first.resume()).result.outcome).toBe('sold');

  const trace = (await traceOf(settings))!;
  expect(trace).toMatchObject({ kind: 'double-sale', stockLeft: 4 });
  const drawn = line(trace);
  expect(drawn.filter((text) => / stock GET 5$/.test(text))).toEqual(['A stock GET 5', 'B stock GET 5']);
  expect(drawn.filter((text) => / stock SET 4/.test(text))).toEqual(['B stock SET 4', 'A stock SET 4 (sold-twice)']);
  // Its compare-and-delete found the lock no longer its own: nothing deleted, and said so.
  expect(drawn).toContain('A lock released false (expired)');
});

it('watchdog: the lease is renewed under the paused holder, the next order waits, and the trace shows no unit sold twice', async () => {
  const { settings, lock, order } = await reset('watchdog');
  const first = await atRead.pause(order);
  const pausedAt = Date.now();
  // Past two leases and the key still there: renewed, not expired.
  await until(async () => Date.now() - pausedAt > 2 * LEASE_MS && (await lab.app.redis.exists(lock)) === 1, 'the watchdog renewed the lease past two leases');
  const second = order();
  expect((await first.resume()).result.outcome).toBe('sold');
  expect((await second).result.outcome).toBe('sold');

  expect(await traceOf(settings)).toBeUndefined();
  expect(steps.filter((s) => s.target === 'expiry')).toEqual([]);
  expect(steps.filter((s) => s.action === 'released').map((s) => s.value)).toEqual(['true', 'true']);
  expect(steps.filter((s) => s.action === 'GET').map((s) => s.value)).toEqual([5, 4]);
});
