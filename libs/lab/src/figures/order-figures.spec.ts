import type { LockEvent } from '@oversell/contracts';
import { DEFAULT_STOCK_OPTIONS, LockEvents, OrderTraces, RedisConnections, type StockOptions, type TraceNote } from '@oversell/stock';
import type { ProductRunSettings } from '@oversell/contracts';
import { CuttableProxy, freshKeyPrefix, testRedisOptions, until } from '@oversell/stock/testing';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { RunFigureKeys } from '../redis-keys';
import { reconcile } from '../runs/reconciliation';
import { MetricsService } from './metrics.service';
import { OrderFigures } from './order-figures';
import { RunFiguresReader } from './run-figures.reader';

/** One instance's figures on the real Redis, reached through a proxy the test can cut mid-flush. */
const keyPrefix = freshKeyPrefix();
const redisAt = testRedisOptions();
const proxy = new CuttableProxy(redisAt.host!, redisAt.port!);
const options: StockOptions = { ...DEFAULT_STOCK_OPTIONS, keyPrefix, instanceId: 'instance-a', redis: { host: '127.0.0.1', port: 0 } };
let redis: Redis;
let connections: RedisConnections;
let lockEvents: LockEvents;
let figures: OrderFigures;

beforeAll(async () => {
  redis = new Redis(redisAt);
  options.redis.port = await proxy.start();
});

beforeEach(async () => {
  connections = new RedisConnections(options);
  lockEvents = new LockEvents();
  figures = new OrderFigures(connections, lockEvents, new OrderTraces(), new MetricsService(), options);
  await figures.onModuleInit();
});

afterEach(async () => {
  await figures.onApplicationShutdown();
  await connections.onApplicationShutdown();
});

afterAll(async () => {
  const left = await redis.keys(`${keyPrefix}:*`);
  if (left.length) await redis.del(...left);
  await Promise.all([redis.quit(), proxy.stop()]);
});

const holding = (requestId: string, acquiredAt: number): LockEvent => ({ lockKey: 'k', instance: 'instance-a', requestId, requestedAt: acquiredAt, acquiredAt, releasedAt: acquiredAt + 5, expired: false });

it('a flush applied by Redis whose reply was lost is counted once, its lock holdings listed once', async () => {
  const runId = randomUUID();
  const keys = new RunFigureKeys(keyPrefix, runId);
  const run = { runId, strategy: 'uuid-lua' } as const;
  // Everything sent from here on reaches Redis and runs there; no reply comes back.
  proxy.swallowReplies();
  for (let i = 0; i < 3; i++) figures.record(run, 'sold', 2, 1);
  lockEvents.emit(runId, 'uuid-lua', holding('a', 1000));
  lockEvents.emit(runId, 'uuid-lua', holding('b', 1010));
  const first = figures.flush();
  await until(async () => (await redis.llen(keys.lockEvents)) > 0, 'Redis applied the flush');
  // The connection dies before the reply: the client cannot tell whether the flush landed, and sends it again.
  proxy.resetConnections();
  await first;
  expect(await figures.flush()).toBe(true);

  expect(await redis.hgetall(keys.counts)).toEqual({ attempts: '3', sold: '3', units: '3' });
  expect((await redis.lrange(keys.lockEvents, 0, -1)).map((e) => (JSON.parse(e) as LockEvent).requestId)).toEqual(['a', 'b']);
});

it('counts the lock holdings it did not keep beyond its cap, and the reconciliation says its overlap check is partial', async () => {
  const runId = randomUUID();
  const holdings = new LockEvents();
  const capped = new OrderFigures(connections, holdings, new OrderTraces(), new MetricsService(), options, 2);
  await capped.onModuleInit();
  try {
    for (let i = 0; i < 5; i++) holdings.emit(runId, 'uuid-lua', holding(`r${i}`, 1000 + i * 10));
    expect(await capped.flush()).toBe(true);
  } finally {
    await capped.onApplicationShutdown();
  }

  const reader = new RunFiguresReader(connections, options);
  const kept = await reader.lockEvents(runId);
  expect(kept.map((e) => e.requestId)).toEqual(['r0', 'r1']);
  const { lockEventsDropped } = await reader.read(runId);
  expect(lockEventsDropped).toBe(3);
  const inventory = { productId: 1, runId, strategy: 'uuid-lua' as const, initialStock: 5, lockTtlMs: 2000, businessDelayMs: 0, remaining: 0, sold: 5, orders: 5, oversold: 0, storesAgree: true, lost: 0, lostUpdates: 0, soldTwice: 0, settledLate: { pending: 0, kept: 0, givenBack: 0 }, moves: null, storeLost: false };
  expect(reconcile(inventory, kept, lockEventsDropped)).toMatchObject({ exclusionViolations: 0, lockEventsDropped: 3 });
});

it('counts each answer in the second it was answered in, across a change of second', async () => {
  const runId = randomUUID();
  const run = { runId, strategy: 'lua-decrement' } as const;
  const secondNow = () => Math.floor(Date.now() / 1000);
  /** Records a sale and says its second, or null if the second changed while it was recorded (then not known). */
  const sale = (): number | null => {
    const before = secondNow();
    figures.record(run, 'sold', 1, 1);
    return secondNow() === before ? before : null;
  };
  const expected = new Map<number | null, number>();
  const note = (second: number | null) => expected.set(second, (expected.get(second) ?? 0) + 1);
  note(sale());
  note(sale());
  const first = secondNow();
  await until(async () => secondNow() > first, 'the next second');
  note(sale());
  expect(await figures.flush()).toBe(true);

  const seconds = await redis.hgetall(new RunFigureKeys(keyPrefix, runId).seconds);
  const unknown = expected.get(null) ?? 0;
  expected.delete(null);
  expect(expected.size).toBeGreaterThanOrEqual(1);
  for (const [second, n] of expected) {
    expect(Number(seconds[`${second}:attempts`])).toBeGreaterThanOrEqual(n);
    expect(Number(seconds[`${second}:attempts`])).toBeLessThanOrEqual(n + unknown);
    expect(seconds[`${second}:units`]).toBe(seconds[`${second}:attempts`]);
  }
  const total = Object.entries(seconds).filter(([field]) => field.endsWith(':attempts')).reduce((sum, [, n]) => sum + Number(n), 0);
  expect(total).toBe(3);
});

it("pools the run's first arrival, last answer and last sale over every instance, to the ms", async () => {
  const runId = randomUUID();
  const run = { runId, strategy: 'lua-decrement' } as const;
  const other = new OrderFigures(connections, new LockEvents(), new OrderTraces(), new MetricsService(), { ...options, instanceId: 'instance-b' });
  await other.onModuleInit();
  try {
    // A sale on this instance that took 50 ms, then a sold-out answer on the other one.
    const saleFrom = Date.now();
    figures.record(run, 'sold', 50, 1);
    const saleTo = Date.now();
    await until(async () => Date.now() > saleTo, 'the clock moved on');
    const lastFrom = Date.now();
    other.record(run, 'sold_out', 1);
    const lastTo = Date.now();
    expect(await other.flush()).toBe(true);
    expect(await figures.flush()).toBe(true);

    const { moments } = await new RunFiguresReader(connections, options).read(runId);
    expect(moments.firstRequestAt).toBeGreaterThanOrEqual(saleFrom - 50);
    expect(moments.firstRequestAt).toBeLessThanOrEqual(saleTo - 50);
    expect(moments.lastSaleAt).toBeGreaterThanOrEqual(saleFrom);
    expect(moments.lastSaleAt).toBeLessThanOrEqual(saleTo);
    expect(moments.lastAnswerAt).toBeGreaterThanOrEqual(lastFrom);
    expect(moments.lastAnswerAt).toBeLessThanOrEqual(lastTo);
  } finally {
    await other.onApplicationShutdown();
  }
});

it("traces the run's first orders only, a bounded number of steps each, and flushes them with the figures", async () => {
  const runId = randomUUID();
  const traces = new OrderTraces();
  const traced = new OrderFigures(connections, new LockEvents(), traces, new MetricsService(), options, undefined, 2);
  await traced.onModuleInit();
  try {
    const settings = { runId, strategy: 'uuid-lua' } as ProductRunSettings;
    const [r0, r1, r2] = ['r0', 'r1', 'r2'].map((requestId) => traces.hook!(settings, requestId));
    expect(r2).toBeNull();
    for (const order of [r0, r1]) order!({ target: 'stock', action: 'GET', value: 5 });
    for (let i = 0; i < 20; i++) r0!({ target: 'lock', action: 'released', value: 'true' });
    for (const step of SHAPES) r1!(step);
    expect(await traced.flush()).toBe(true);
  } finally {
    await traced.onApplicationShutdown();
  }
  expect(traces.hook).toBeNull();

  const steps = await new RunFiguresReader(connections, options).traceSteps(runId);
  // r2 came after the window of 2 orders was full; r0 stopped at its 12 steps.
  expect(new Set(steps.map((s) => s.actor))).toEqual(new Set(['r0', 'r1']));
  expect(steps.filter((s) => s.actor === 'r0')).toHaveLength(12);
  expect(steps[0]).toMatchObject({ actor: 'r0', instance: 'instance-a', target: 'stock', action: 'GET', value: 5 });
  expect(typeof steps[0].at).toBe('number');
  // Written out by hand, each step is the JSON of { actor, instance, at: now, ...step }, to the byte.
  const kept = (await connections.control.lrange(new RunFigureKeys(options.keyPrefix, runId).traceSteps, 0, -1)).filter((json) => json.includes('"actor":"r1"'));
  const at = (json: string): number | undefined => JSON.parse(json).at;
  expect(kept).toEqual([{ target: 'stock', action: 'GET', value: 5 }, ...SHAPES].map((step, i) => JSON.stringify({ actor: 'r1', instance: 'instance-a', at: at(kept[i]), ...step })));
  expect(at(kept[0])).toEqual(expect.any(Number));
});

/** The shapes its emitters give a step: a time of its own or none, a value a number or a string or none, a note, text that needs escaping. */
const SHAPES: TraceNote[] = [
  { target: 'lock', action: 'granted', value: 2000, at: 1_700_000_000_123.456, note: 'fence:7' },
  { target: 'lock', action: 'released', value: 'false', at: 1_700_000_000_200.5, note: 'expired' },
  { target: 'lock', action: 'released', value: 'true', at: undefined },
  { target: 'expiry', action: 'lease ran out', at: 1_700_000_000_150 },
  { target: 'lock', action: 'lease lost' },
  { target: 'stock', action: 'UPDATE', value: 0, note: 'version:"3"\n' },
];
