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
/** Short enough that a test waits for orders to give up on a held lock, long enough for the others' waits. */
const LOCK_WAIT_MS = 1000;
const lab = useStockTestApp({ faultHooks: [atWrite.hook, atRead.hook], lockWaitTimeoutMs: LOCK_WAIT_MS });
const LEASE_MS = 150;

let steps: SequenceStep[];
let stopTracing: () => void;
beforeEach(() => {
  steps = [];
  stopTracing = lab.app.app.get(OrderTraces).listen((_settings, requestId) => (step) => steps.push({ actor: requestId, instance: 'test', at: preciseNow(), ...step }));
});
afterEach(() => stopTracing());

async function reset(
  strategy: 'naive-setnx' | 'uuid-lua' | 'watchdog' | 'db-optimistic',
  { stock = 5, lockTtlMs = LEASE_MS, businessDelayMs = 0 } = {},
): Promise<{ settings: ProductRunSettings; lock: string; order(): ReturnType<typeof lab.app.placement.place> }> {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock, strategy, lockTtlMs, businessDelayMs });
  return { settings, lock: StockKeys.of(lab.keyPrefix, settings).lock, order: () => lab.app.placement.place({ productId, quantity: 1, strategy }) };
}

/** Waits until Redis has expired the key: the state the pitfall needs, observed rather than slept for. */
const untilGone = (key: string) => until(async () => (await lab.app.redis.exists(key)) === 0, `${key} expired`);

/** The run's books as the lab reads them: the stores, and what the orders answered (timeouts, failed version checks). */
async function traceOf(settings: ProductRunSettings, answered: { lockTimeouts?: number; conflicts?: number } = {}): Promise<RunTrace | undefined> {
  const { moves, remaining, sold } = await lab.app.inventory.inventory(settings.productId);
  return traceOfRun({ steps, sameRead: moves?.firstSameRead, journalSaysNone: !!moves && !moves.firstSameRead, lockTimeouts: answered.lockTimeouts ?? 0, remaining, conflictRetries: answered.conflicts ?? 0, sold });
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

it('watchdog: the lease is renewed under the paused holder (the first renewals noted), the next order waits in line behind it, and no unit is sold twice', async () => {
  const { settings, lock, order } = await reset('watchdog');
  const first = await atRead.pause(order);
  const pausedAt = Date.now();
  // Past two leases and the key still there: renewed (every third of a lease), not expired.
  await until(async () => Date.now() - pausedAt > 2 * LEASE_MS && (await lab.app.redis.exists(lock)) === 1, 'the watchdog renewed the lease past two leases');
  const second = order();
  // In line before A lets go (the placement's first await may come after the resume): the wait is what the trace explains.
  await until(async () => steps.some((s) => s.action === 'requested' && s.actor !== steps[0].actor), 'the second order asked for the lock');
  expect((await first.resume()).result.outcome).toBe('sold');
  expect((await second).result.outcome).toBe('sold');

  const trace = (await traceOf(settings))!;
  // Stock is left, so the line behind the key is what the trace explains: B asked while A held it.
  expect(trace.kind).toBe('hot-key');
  expect(trace.steps.some((s) => s.note === 'sold-twice')).toBe(false);
  const drawn = line(trace);
  expect(drawn.indexOf('A lock granted 150')).toBeLessThan(drawn.indexOf('B lock requested'));
  expect(drawn.indexOf('B lock requested')).toBeLessThan(drawn.indexOf('A lock released true'));
  expect(drawn.indexOf('A lock released true')).toBeLessThan(drawn.indexOf('B lock granted 150'));
  // At least six renewals in the pause; the trace keeps the first three, so the section's own steps still fit.
  expect(drawn.filter((text) => text === `A lock renewed ${LEASE_MS}`)).toHaveLength(3);
  expect(steps.filter((s) => s.target === 'expiry')).toEqual([]);
  expect(steps.filter((s) => s.action === 'released').map((s) => s.value)).toEqual(['true', 'true']);
  expect(steps.filter((s) => s.action === 'GET').map((s) => s.value)).toEqual([5, 4]);
});

it("watchdog: a lease lost under the holder is noted, and its end drawn one lease after the last renewal, not the grant", async () => {
  const { lock, order } = await reset('watchdog');
  const first = await atRead.pause(order);
  await until(async () => steps.filter((s) => s.action === 'renewed').length >= 2, 'two renewals');
  // The key gone under the holder (as after a failover): its next renewal fails and it learns it lost the lock.
  await lab.app.redis.del(lock);
  await until(async () => steps.some((s) => s.action === 'lease lost'), 'the holder learned it lost the lock');
  await first.resume();

  const mine = steps.filter((s) => s.actor === steps[0].actor);
  const renewals = mine.filter((s) => s.action === 'renewed');
  const expiry = mine.find((s) => s.target === 'expiry')!;
  expect(expiry.at).toBe(renewals[renewals.length - 1].at! + LEASE_MS);
  expect(mine.find((s) => s.action === 'granted')!.at! + LEASE_MS).toBeLessThan(expiry.at!);
  expect(mine.map((s) => s.action)).toEqual(expect.arrayContaining(['lease lost', 'lease ran out']));
  expect(mine.find((s) => s.action === 'released')).toMatchObject({ value: 'false', note: 'expired' });
});

it('uuid-lua under a held lock: the orders that gave up waiting are drawn in line behind the holder', async () => {
  const { settings, order } = await reset('uuid-lua', { lockTtlMs: 10 * LOCK_WAIT_MS });
  const holder = await atRead.pause(order);
  const waiters = [order(), order()];
  const answers = await Promise.all(waiters);
  expect(answers.map((a) => a.result.outcome)).toEqual(['lock_timeout', 'lock_timeout']);
  expect((await holder.resume()).result.outcome).toBe('sold');

  const trace = (await traceOf(settings, { lockTimeouts: 2 }))!;
  expect(trace.kind).toBe('hot-key');
  expect(trace.orders.map((o) => o.actor)).toEqual(['A', 'B', 'C']);
  const drawn = line(trace);
  const at = (text: string) => drawn.indexOf(text);
  expect(at('A lock granted 10000')).toBeLessThan(at('B lock requested'));
  // Both waiters gave up on A's holding; the trace is about the first to give up.
  const gaveUp = drawn.filter((text) => / lock timed out /.test(text)).map((text) => text.slice(0, 1));
  expect([...gaveUp].sort()).toEqual(['B', 'C']);
  expect(trace.focus).toBe(gaveUp[0]);
  expect(at('C lock timed out 1000')).toBeLessThan(at('A stock SET 4'));
});

it('db-optimistic: the retry storm is one order\'s failed version checks, each lost to a sale between its read and its UPDATE', async () => {
  // A business time between the read and the UPDATE: every order that read together races for the one version.
  const { settings, order } = await reset('db-optimistic', { stock: 6, businessDelayMs: 60 });
  const answers = await Promise.all(Array.from({ length: 6 }, () => order()));
  const conflicts = answers.reduce((sum, a) => sum + ('conflicts' in a.result ? (a.result.conflicts ?? 0) : 0), 0);
  const sold = answers.filter((a) => a.result.outcome === 'sold').length;
  expect(conflicts).toBeGreaterThan(sold);

  const trace = (await traceOf(settings, { conflicts }))!;
  expect(trace.kind).toBe('retry-storm');
  // The stormed order: the one with the most failed checks (lettered, like all, by its first step).
  const failedOf = (actor: string) => trace.steps.filter((s) => s.actor === actor && s.action === 'UPDATE');
  const actor = trace.focus!;
  expect(trace.orders.every((o) => failedOf(o.actor).length <= failedOf(actor).length)).toBe(true);
  const stormed = trace.steps.filter((s) => s.actor === actor);
  const failed = failedOf(actor);
  expect(failed.length).toBeGreaterThan(1);
  expect(failed.every((s) => s.value === 0 && /^version:\d+$/.test(s.note ?? ''))).toBe(true);
  // Each failed check lost to another order's sale after the read it checked against.
  for (const check of failed) {
    const read = stormed.filter((s) => s.action === 'GET' && s.at! < check.at!).pop()!;
    expect(trace.steps.some((s) => s.actor !== actor && s.action === 'SET' && s.at! > read.at! && s.at! < check.at!)).toBe(true);
  }
  // No unit sold twice: every sale wrote a stock value of its own.
  const sales = trace.steps.filter((s) => s.action === 'SET').map((s) => s.value);
  expect(new Set(sales).size).toBe(sales.length);
});
