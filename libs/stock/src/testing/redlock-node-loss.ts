import type { StrategyName } from '@oversell/contracts';
import { RedisNodeGroup } from '@oversell/locks/testing';
import { NoLockMajorityError } from '../errors';
import { createStockTestApp, useStockTestApp, type StockTestApp } from './stock-test-app';
import { freshProductId } from './test-services';

/**
 * The tests of a strategy that locks with RedLock on five Redis nodes (needs 'redis-nodes'), on five
 * nodes of the file's own (the run's shared ones are never faulted): with 2 of 5 down it still sells;
 * with 3 of 5 down an order is refused as lock_unavailable and takes nothing.
 */
export function describeRedlockNodeLoss(strategy: StrategyName): void {
  const lab = useStockTestApp();
  let group: RedisNodeGroup | undefined;
  let app: StockTestApp | undefined;

  beforeAll(async () => {
    group = RedisNodeGroup.start();
    // A short lock wait: with no majority to be had, the lock keeps trying until the wait runs out.
    app = await createStockTestApp({ keyPrefix: lab.keyPrefix, instanceId: 'own-nodes', lockWaitTimeoutMs: 1000, lockServices: { 'redis-nodes': group.addresses.join(',') } });
  });

  afterAll(async () => {
    await app?.close();
    group?.stop();
  });

  it('2 of 5 nodes down: still sells on the 3 left; 3 of 5 down: the order is refused as lock_unavailable and nothing is taken', async () => {
    const productId = freshProductId();
    await app!.reset.reset(productId, { stock: 5, strategy });
    const order = async () => (await app!.placement.place({ productId, quantity: 1, strategy })).result;

    group!.stopNode(3);
    group!.stopNode(4);
    expect((await order()).outcome).toBe('sold');

    group!.stopNode(2);
    const refused = await order();
    expect(refused.outcome === 'error' && refused.error).toBeInstanceOf(NoLockMajorityError);
    expect(refused.outcome === 'error' && refused.error.message).toMatch(/2 of its nodes answered, a majority of 3 is needed; nothing was taken$/);
    expect(await app!.inventory.inventory(productId)).toMatchObject({ sold: 1, remaining: 4, orders: 1, oversold: 0, storesAgree: true });
  });
}
