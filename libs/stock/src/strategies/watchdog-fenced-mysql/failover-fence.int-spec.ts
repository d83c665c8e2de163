/**
 * watchdog-fenced-mysql under the failover pitfall (libs/locks/src/failover): does the row's fence close
 * the double grant? The fencing counter lives on the Redis master with the lock, so a failover loses
 * the grants that had not replicated, and the promoted replica issues their tokens again. The row
 * refuses a token LOWER than the highest it has seen, and an equal one from any holding but the one
 * that brought it (the holder claims the row at its read and writes with the same token). So:
 * - one grant lost (the failover lost the last write, the usual case): the second holder is given the
 *   first holder's very token; the row, which knows who brought it, refuses the second holder, and the
 *   unit is sold once. (A fence that compared tokens alone accepted both and sold it twice.)
 * - two grants lost: the second holder's token is lower than the one the row has seen: refused.
 * Real servers: a Sentinel group of the test's own (its replication held back at the master's proxy
 * from the chosen moment), the real MariaDB row through MysqlStockFence.
 */
import { WatchdogLock, type LockHolding } from '@oversell/locks';
import { SentinelFailover } from '@oversell/locks/testing';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MysqlStockFence } from '../../compose/mysql-stock-fence';
import { mysqlDataSourceOptions, ProductEntity } from '../../persistence';
import { freshKeyPrefix, freshProductId, testMysqlSettings } from '../../testing';

const prefix = freshKeyPrefix();

describe('watchdog-fenced-mysql when a failover loses fenced grants', () => {
  let failover: SentinelFailover;
  let dataSource: DataSource;
  const clients: Redis[] = [];
  const productIds: number[] = [];

  /** A fenced watchdog as one instance holds it, its clients finding the master through the Sentinels. */
  function fencedWatchdog(): WatchdogLock {
    // While the Sentinels still name the dead master ioredis reports each failed reconnect, and retries.
    const [redis, subscriber] = [failover.connect(), failover.connect()].map((client) => client.on('error', () => undefined));
    clients.push(redis, subscriber);
    return new WatchdogLock(redis, subscriber, { fenced: true });
  }

  async function productRow(): Promise<{ productId: number; runId: string }> {
    const row = { productId: freshProductId(), runId: randomUUID() };
    productIds.push(row.productId);
    await dataSource.getRepository(ProductEntity).insert({
      id: row.productId,
      sku: `${prefix}-${row.productId}`,
      name: 'failover fence',
      initialStock: 1,
      stock: 1,
      runId: row.runId,
      strategy: 'watchdog-fenced-mysql',
      lockTtlMs: 60_000,
      businessDelayMs: 0,
      segments: 1,
    });
    return row;
  }

  const stockOf = async (productId: number) => (await dataSource.getRepository(ProductEntity).findOneByOrFail({ id: productId })).stock;

  beforeAll(async () => {
    dataSource = await new DataSource({ ...mysqlDataSourceOptions(testMysqlSettings()), migrationsRun: false }).initialize();
    failover = await SentinelFailover.start();
  }, 120_000);

  afterAll(async () => {
    clients.forEach((client) => client.disconnect());
    if (productIds.length) await dataSource?.getRepository(ProductEntity).delete(productIds);
    await dataSource?.destroy();
    await failover?.stop();
  });

  it('one grant lost: the same token twice, and the row lets in only the holding that brought it first (sold once); two lost: the lower token refused', async () => {
    const manager = dataSource.manager;
    const first = fencedWatchdog();
    const acquire = async (lock: WatchdogLock, key: string, waitMs = 0): Promise<LockHolding> => (await lock.acquire(key, { waitMs, leaseMs: 60_000 }))!;
    const oneLost = { key: `${prefix}:lock:one-lost`, row: await productRow() };
    const twoLost = { key: `${prefix}:lock:two-lost`, row: await productRow() };

    // Before the fault: one grant on each lock, its token claimed on the row, replicated (WAIT).
    for (const { key, row } of [oneLost, twoLost]) {
      const earlier = await acquire(first, key);
      expect(earlier.fencingToken).toBe(1);
      expect(await new MysqlStockFence(1, earlier.token).claim(manager, row)).toBe(true);
      await earlier.release();
    }
    const master = failover.connect();
    expect(await master.wait(1, 10_000)).toBe(1);
    master.disconnect();

    failover.proxy.holdReplication();
    const a = await acquire(first, oneLost.key);
    expect(a.fencingToken).toBe(2);
    const aFence = new MysqlStockFence(2, a.token);
    expect(await aFence.claim(manager, oneLost.row)).toBe(true);
    const aRead = await stockOf(oneLost.row.productId);
    await (await acquire(first, twoLost.key)).release();
    const a2 = await acquire(first, twoLost.key);
    expect(a2.fencingToken).toBe(3);
    expect(await new MysqlStockFence(3, a2.token).claim(manager, twoLost.row)).toBe(true);

    await failover.killMaster();
    const second = fencedWatchdog();

    // One grant lost: the promoted replica's counter was 1, so the second holder gets 2 again.
    const b = await acquire(second, oneLost.key, 10_000);
    expect(b.fencingToken).toBe(a.fencingToken);
    expect(b.token).not.toBe(a.token);
    // The row knows the 2 it has seen came with the first holding: the second is refused at its claim.
    const bFence = new MysqlStockFence(b.fencingToken!, b.token);
    expect(await bFence.claim(manager, oneLost.row)).toBe(false);
    expect(await bFence.write(manager, oneLost.row, (await stockOf(oneLost.row.productId)) - 1)).toBe(false);
    // The first holder, never told, finishes its read-check-write: accepted, and the unit is sold once.
    expect(await aFence.write(manager, oneLost.row, aRead - 1)).toBe(true);
    expect(aRead).toBe(1);
    expect(await stockOf(oneLost.row.productId)).toBe(0);

    // Two grants lost: the second holder's 2 is below the 3 the row has seen.
    const b2 = await acquire(second, twoLost.key, 10_000);
    expect(b2.fencingToken).toBe(2);
    expect(await new MysqlStockFence(b2.fencingToken!, b2.token).claim(manager, twoLost.row)).toBe(false);
  }, 120_000);
});
