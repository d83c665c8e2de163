import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { faultPointsFor } from '../fault-points';
import { mysqlDataSourceOptions } from '../persistence';
import { recordOrGiveBack } from '../redis/redis-stock';
import type { StockOptions } from '../stock.options';
import { CuttableProxy, freshKeyPrefix, freshProductId, testMysqlSettings, testRedisOptions, until } from '../testing';
import type { IdempotencyKeys } from './idempotency-keys';
import { OrderRecorder } from './order-recorder';

/**
 * An INSERT whose client connection died is not stopped on the server while it works (MariaDB notices
 * a lost client in lock waits, not in work such as a slow commit): it can commit after the attempt
 * looked it up, found nothing and gave the units back. Here the recorder talks to the real MariaDB
 * through a proxy, a trigger gives this test's INSERTs a second of server work, and the test resets
 * the connection while the INSERT is at it.
 */
const mysql = testMysqlSettings();
const proxy = new CuttableProxy(mysql.host, mysql.port);
const prefix = freshKeyPrefix();
/** Only this test's orders carry it, so the trigger slows nobody else's. */
const SLOW_INSTANCE = `slow-insert-${process.pid}`;
const TRIGGER = `orders_slow_insert_${process.pid}`;
/** Named in the trigger's statement, which is what the process list shows while the INSERT is in it. */
const IN_TRIGGER = `@slow_insert_${process.pid}`;
let throughProxy: DataSource;
let direct: DataSource;
let redis: Redis;
let recorder: OrderRecorder;

beforeAll(async () => {
  await proxy.start();
  throughProxy = await new DataSource(mysqlDataSourceOptions({ ...mysql, port: proxy.port })).initialize();
  direct = await new DataSource(mysqlDataSourceOptions(mysql)).initialize();
  redis = new Redis(testRedisOptions());
  // No idempotency key in this test: the recorder never asks Redis about one.
  recorder = new OrderRecorder(throughProxy, null as unknown as IdempotencyKeys, { instanceId: SLOW_INSTANCE, lockWaitTimeoutMs: 10_000 } as StockOptions);
  await direct.query(`CREATE TRIGGER ${TRIGGER} BEFORE INSERT ON orders FOR EACH ROW BEGIN IF NEW.instance_id = '${SLOW_INSTANCE}' THEN SET ${IN_TRIGGER} = SLEEP(1); END IF; END`);
});

afterAll(async () => {
  await direct.query(`DROP TRIGGER IF EXISTS ${TRIGGER}`);
  const left = await redis.keys(`${prefix}:*`);
  if (left.length) await redis.del(...left);
  await Promise.all([throughProxy.destroy(), direct.destroy(), redis.quit(), proxy.stop()]);
});

/** Server threads running the request's INSERT, or inside the trigger it fires. */
const runningFor = (requestId: string): Promise<unknown[]> =>
  direct.query('SELECT ID FROM information_schema.PROCESSLIST WHERE (INFO LIKE ? OR INFO LIKE ?) AND INFO NOT LIKE ?', [`%${requestId}%`, `%${IN_TRIGGER}%`, '%PROCESSLIST%']);

it('an INSERT still running on the server when its connection died is ended before its units go back', async () => {
  const requestId = randomUUID();
  const productId = freshProductId();
  const settings = { productId, runId: randomUUID(), strategy: 'lua-decrement' as const, initialStock: 10, lockTtlMs: 2000, businessDelayMs: 0, segments: 5 };
  const cell = { stock: `${prefix}:stock`, moves: `${prefix}:moves`, orders: `${prefix}:orders` };
  await direct.query(
    `INSERT INTO products (id, sku, name, initial_stock, stock, run_id, strategy, lock_ttl_ms, business_delay_ms, segments) VALUES (?, ?, 'slow insert', 10, 10, ?, 'lua-decrement', 2000, 0, 5)`,
    [productId, `slow-insert-${productId}`, settings.runId],
  );
  // 10 units, of which this request has just taken 2.
  await redis.set(cell.stock, 8);

  const attempt = recordOrGiveBack(redis, cell, {
    requestId,
    quantity: 2,
    settings,
    faults: faultPointsFor(settings),
    record: () => recorder.record({ productId, quantity: 2, strategy: 'lua-decrement', runId: settings.runId, idempotencyKey: null, requestId }),
    recorded: () => recorder.findByRequestId(requestId),
  });
  await until(async () => (await runningFor(requestId)).length > 0, 'the INSERT runs on the server');
  // The client's connection dies; the server, busy with the INSERT, does not notice.
  proxy.resetConnections();
  await expect(attempt).rejects.toThrow();
  await until(async () => (await runningFor(requestId)).length === 0, 'the INSERT has finished on the server');

  const orders = (await direct.query('SELECT COUNT(*) AS n FROM orders WHERE request_id = ?', [requestId])) as { n: string }[];
  // Units given back and no order, or units kept and the order there: never both given back and sold.
  expect({ stock: Number(await redis.get(cell.stock)), orders: Number(orders[0].n) }).toEqual({ stock: 10, orders: 0 });
});
