import type { ProductRunSettings, StrategyName } from '@oversell/contracts';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { faultPointsFor } from '../fault-points';
import { createStockTestApp, CuttableProxy, freshKeyPrefix, freshProductId, testRedisOptions, until, type StockTestApp } from '../testing';
import { recordOrGiveBack } from './redis-stock';
import { StockKeys } from './stock-keys';

/**
 * ioredis sends a command again when its connection died before the reply came (autoResendUnfulfilledCommands),
 * although Redis may have run it. Here Redis runs the command, the reply is lost, the connection resets,
 * and the service's own client sends it again: the stock must move once.
 */
const keyPrefix = freshKeyPrefix();
const redisAt = testRedisOptions();
const proxy = new CuttableProxy(redisAt.host!, redisAt.port!);
let lab: StockTestApp;
let direct: Redis;
/** Set by a test: the next order's replies are swallowed from its first command after the stock was taken. */
let swallowNext = false;
function swallowAfterStockWritten(point: string): void {
  if (point !== 'stock-written' || !swallowNext) return;
  swallowNext = false;
  proxy.swallowReplies();
}

beforeAll(async () => {
  await proxy.start();
  // No order writer: its worker's blocking connection, behind a proxy that swallowed replies, would keep the app from closing.
  lab = await createStockTestApp({ keyPrefix, redis: { host: '127.0.0.1', port: proxy.port }, writeQueuedOrders: false, faultHooks: [swallowAfterStockWritten] });
  direct = new Redis(redisAt);
});

afterAll(async () => {
  const left = await direct.keys(`${keyPrefix}:*`);
  if (left.length) await direct.del(...left);
  await lab.close();
  await Promise.all([direct.quit(), proxy.stop()]);
});

const stockIn = async (settings: ProductRunSettings) => Number(await direct.get(StockKeys.of(keyPrefix, settings).stock));

describe.each<StrategyName>(['lua-decrement', 'decr-check'])('%s', (strategy) => {
  it('takes the units once when its take is sent again after a lost reply', async () => {
    const productId = freshProductId();
    const settings = await lab.reset.reset(productId, { stock: 10, strategy });
    // One order first: the settings are then in memory, and the next order's first command to Redis is its take.
    expect((await lab.placement.place({ productId, quantity: 1, strategy })).result.outcome).toBe('sold');
    proxy.swallowReplies();
    const order = lab.placement.place({ productId, quantity: 2, strategy });
    await until(async () => (await stockIn(settings)) === 7, 'Redis ran the take');
    proxy.resetConnections();

    expect((await order).result.outcome).toBe('sold');
    expect(await stockIn(settings)).toBe(7);
    expect(await lab.inventory.inventory(productId)).toMatchObject({ initialStock: 10, remaining: 7, sold: 3, orders: 2, storesAgree: true });
  });
});

it('gives the units back once when the give-back is sent again after a lost reply', async () => {
  const settings: ProductRunSettings = { productId: freshProductId(), runId: randomUUID(), strategy: 'lua-decrement', initialStock: 10, lockTtlMs: 2000, businessDelayMs: 0, segments: 5 };
  const cell = StockKeys.of(keyPrefix, settings);
  // 10 units, of which this request has just taken 2; its INSERT was refused before it was sent.
  await direct.set(cell.stock, 8);
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  proxy.swallowReplies();
  const attempt = recordOrGiveBack(lab.redis, cell, {
    requestId: randomUUID(),
    quantity: 2,
    settings,
    faults: faultPointsFor(settings),
    record: () => Promise.reject(refused),
    recorded: () => Promise.reject(new Error('not asked: the INSERT was never sent')),
  });
  await until(async () => (await stockIn(settings)) === 10, 'Redis ran the give-back');
  proxy.resetConnections();

  await expect(attempt).rejects.toThrow('ECONNREFUSED');
  expect(await stockIn(settings)).toBe(10);
});

it("claims a queued order's idempotency key when the claim is sent again after a lost reply: one order, not a refusal", async () => {
  const strategy: StrategyName = 'lua-decrement';
  const productId = freshProductId();
  const settings = await lab.reset.reset(productId, { stock: 10, strategy, orderWrite: 'queued' });
  expect((await lab.placement.place({ productId, quantity: 1, strategy })).result.outcome).toBe('sold');
  const idempotencyKey = `resent-claim-${randomUUID()}`;
  swallowNext = true;
  const order = lab.placement.place({ productId, quantity: 2, strategy, idempotencyKey });
  // Redis ran the claim (SET NX); its reply is lost, and ioredis sends it again on the new connection.
  await until(async () => (await direct.exists(`${keyPrefix}:idempotency:${idempotencyKey}`)) === 1, 'Redis ran the claim');
  proxy.resetConnections();

  expect((await order).result).toMatchObject({ outcome: 'sold', order: { queued: true, replayed: false, idempotencyKey } });
  expect(await stockIn(settings)).toBe(7);
});
