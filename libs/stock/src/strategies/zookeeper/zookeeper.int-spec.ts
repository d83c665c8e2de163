import { StoreUnavailableError } from '../../errors';
import { createStockTestApp, freshProductId, runOrdersAcrossProcesses, useStockTestApp } from '../../testing';

/** The zookeeper strategy on the real ZooKeeper the stock tests' globalSetup started (ZOOKEEPER_CONNECT). */
const lab = useStockTestApp();

// Port 1 (tcpmux) is never served on a test machine: connections are refused at once.
const NOTHING_LISTENS = '127.0.0.1:1';

it('holds the lock however long the business takes (1.5 s > the lock TTL of 1 s): 3 processes sell exactly the 4 units, none loses the lock', async () => {
  const productId = freshProductId();
  await lab.app.reset.reset(productId, { stock: 4, strategy: 'zookeeper', lockTtlMs: 1000, businessDelayMs: 1500 });
  const { outcomes, errors } = await runOrdersAcrossProcesses({ processes: 3, requestsPerProcess: 2, inFlight: 2, keyPrefix: lab.keyPrefix, productId, strategy: 'zookeeper' });
  expect(errors).toEqual([]);
  expect(outcomes).toMatchObject({ sold: 4, sold_out: 2, lock_lost: 0, fenced: 0 });
  expect(await lab.app.inventory.inventory(productId)).toMatchObject({ sold: 4, remaining: 0, oversold: 0, orders: 4, storesAgree: true });
  // 6 s of business one order after another, plus 3 processes starting on a shared 2-core box.
}, 120_000);

it('a ZooKeeper that does not answer: the order fails as ZooKeeper unavailable (not Redis) within the lock wait, nothing taken', async () => {
  const unreachable = await createStockTestApp({ keyPrefix: lab.keyPrefix, instanceId: 'no-zookeeper', lockServices: { zookeeper: NOTHING_LISTENS } });
  try {
    const productId = freshProductId();
    await unreachable.reset.reset(productId, { stock: 3, strategy: 'zookeeper' });
    const { result } = await unreachable.placement.place({ productId, quantity: 1, strategy: 'zookeeper' });
    expect(result.outcome === 'error' && result.error).toBeInstanceOf(StoreUnavailableError);
    expect(result.outcome === 'error' && result.error).toMatchObject({ store: 'zookeeper', message: expect.stringMatching(/^zookeeper is unavailable/) });
    expect(await unreachable.inventory.inventory(productId)).toMatchObject({ sold: 0, remaining: 3, orders: 0 });
  } finally {
    await unreachable.close();
  }
});
