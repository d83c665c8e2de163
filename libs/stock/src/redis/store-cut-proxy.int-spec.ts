import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { connect } from 'node:net';
import { STORE_CUT, type FaultHook, type FaultPoint } from '../fault-points';
import { createStockTestApp, freshKeyPrefix, freshProductId, testRedisOptions, until, type StockTestApp } from '../testing';
import type { StoreCutProxy } from './store-cut-proxy';

/**
 * The store-cut fault on the real StockModule with storeProxy on: its own Redis connections go through
 * its StoreCutProxy, the real Redis stays up for everyone else. A fault hook cuts the store at one
 * order's fault point, as the service's injector does.
 */
const keyPrefix = freshKeyPrefix();
let lab: StockTestApp;
let storeCut: StoreCutProxy;
let direct: Redis;
/** The next order to pass this point cuts the store for cutMs, then goes on (the cut heals first). */
let armed: { point: FaultPoint; cutMs: number } | null = null;

const cutOnce: FaultHook = async (point) => {
  if (armed?.point !== point) return;
  const { cutMs } = armed;
  armed = null;
  await storeCut.cut(cutMs);
};

/** True when a new TCP connection to the port is refused. */
const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

beforeAll(async () => {
  // No order writer: these orders are written at once, and a BullMQ worker whose connections were cut
  // under it here never finished closing (BullMQ 6.7; the service's own shutdown is bounded, main.ts).
  lab = await createStockTestApp({ keyPrefix, storeProxy: true, faultHooks: [cutOnce], writeQueuedOrders: false });
  storeCut = lab.app.get<StoreCutProxy>(STORE_CUT);
  direct = new Redis(testRedisOptions());
});

afterAll(async () => {
  const left = await direct.keys(`${keyPrefix}:*`);
  if (left.length) await direct.del(...left);
  await lab.close();
  await direct.quit();
});

it('routes the instance through the proxy; while cut its commands fail and new connections are refused, Redis stays up for others; then it heals', async () => {
  expect(lab.redis.options.port).toBe(storeCut.route.port);
  expect(storeCut.route.port).not.toBe(testRedisOptions().port);
  const key = `${keyPrefix}:probe`;
  await lab.redis.set(key, 'before');

  const cut = storeCut.cut(1500);
  await until(() => refuses(storeCut.route.port), 'the proxy refuses new connections');
  await expect(lab.redis.get(key)).rejects.toThrow();
  // Redis itself is untouched: another client reads and writes it during the cut.
  await direct.set(key, 'during');
  await cut;

  expect(await refuses(storeCut.route.port)).toBe(false);
  expect(await lab.redis.get(key)).toBe('during');
});

it('a watchdog holder cut off its store loses its lease: its signal fires and it writes nothing (lock_lost); after the cut orders sell and the stores agree', async () => {
  const productId = freshProductId();
  // Renewed every 200 ms: a 1.5 s cut makes the renewals fail and the lease run out.
  await lab.reset.reset(productId, { stock: 5, strategy: 'watchdog', lockTtlMs: 600, businessDelayMs: 0 });
  expect((await lab.placement.place({ productId, quantity: 1, strategy: 'watchdog' })).result.outcome).toBe('sold');

  armed = { point: 'stock-read', cutMs: 1500 };
  const lost = await lab.placement.place({ productId, quantity: 1, strategy: 'watchdog' });
  expect(armed).toBeNull();
  expect(lost.result.outcome).toBe('lock_lost');

  for (let i = 0; i < 2; i++) expect((await lab.placement.place({ productId, quantity: 1, strategy: 'watchdog' })).result.outcome).toBe('sold');
  expect(await lab.inventory.inventory(productId)).toMatchObject({ initialStock: 5, remaining: 2, sold: 3, orders: 3, oversold: 0, storesAgree: true });
});

it('overlapping cuts keep the store cut until the last one ends', async () => {
  const long = storeCut.cut(1200);
  await until(() => refuses(storeCut.route.port), 'the first cut began');
  await storeCut.cut(1);
  // The short cut ended inside the long one: still cut.
  expect(await refuses(storeCut.route.port)).toBe(true);
  await long;
  expect(await refuses(storeCut.route.port)).toBe(false);
});

it("tells a cut once per connection in the service's log, and its end, and prints no error of its own", async () => {
  // Back from the earlier tests' cuts first (it answers once it has reconnected).
  await lab.redis.ping();
  // ioredis with no error listener, and BullMQ, print a stack for every reconnection attempt (console.error).
  const printed = jest.spyOn(console, 'error');
  const warned = jest.spyOn(Logger.prototype, 'warn');
  const said = (spy: jest.SpyInstance, start: string) => spy.mock.calls.map(([message]) => String(message)).filter((message) => message.startsWith(start));
  try {
    // Long enough for several reconnection attempts (ioredis retries after 50, 100, 150 ms …).
    await storeCut.cut(1500);
    await until(async () => said(warned, 'connection "commands" is back').length > 0, 'the commands connection is back');

    expect(await lab.redis.ping()).toBe('PONG');
    expect(said(warned, 'connection "commands"')).toEqual([expect.stringContaining('its commands fail until it reconnects'), 'connection "commands" is back']);
    expect(printed.mock.calls).toEqual([]);
  } finally {
    printed.mockRestore();
    warned.mockRestore();
  }
});
