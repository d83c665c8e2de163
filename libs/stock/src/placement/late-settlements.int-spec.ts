import { StockKeys } from '../redis/stock-keys';
import { freshProductId, until, useStockInstanceBehindMysqlProxy, useStockTestApp } from '../testing';

/**
 * MySQL goes away in the middle of an order's INSERT, and stays away while the order asks whether its
 * INSERT landed: neither answer is known, so the units stay taken. Once MySQL answers again they are
 * settled: given back if the order is not there, kept if it is. Before, they stayed taken for good (a
 * 3 s MySQL outage left 161 of watchdog's 400 units taken with no order).
 */
const lab = useStockTestApp();
const behindProxy = useStockInstanceBehindMysqlProxy(lab, 'behind-mysql-proxy');

async function product() {
  const productId = freshProductId();
  const settings = await lab.app.reset.reset(productId, { stock: 10, strategy: 'lua-decrement' });
  const stock = () => lab.app.redis.get(StockKeys.of(lab.keyPrefix, settings).stock);
  const order = async () => (await behindProxy.app.placement.place({ productId, quantity: 1, strategy: 'lua-decrement' })).result;
  // A first order through the proxy: its pool then has a connection to send the next INSERT on.
  expect((await order()).outcome).toBe('sold');
  return { productId, stock, order };
}

it('an INSERT that never reached MySQL: its units stay taken while MySQL is away, and go back once it answers', async () => {
  const { productId, stock, order } = await product();
  behindProxy.proxy.holdRequests();
  const placed = order();
  await until(async () => (await stock()) === '8', 'the order took its unit');
  await behindProxy.proxy.cut();
  const result = await placed;
  expect(result.outcome).toBe('error');
  // Neither "landed" nor "not there" is known: the unit stays taken, waiting.
  expect(await stock()).toBe('8');
  expect((await lab.app.inventory.inventory(productId)).settledLate).toEqual({ pending: 1, kept: 0, givenBack: 0 });

  await behindProxy.proxy.restore();
  const inventory = await lab.app.inventory.settledInventory(productId, 10_000);
  expect(inventory.settledLate).toEqual({ pending: 0, kept: 0, givenBack: 1 });
  expect(inventory).toMatchObject({ remaining: 9, sold: 1, orders: 1, lost: 0, soldTwice: 0, storesAgree: true });
});

it('an INSERT that committed but whose answer was lost: its units stay taken, and are kept once MySQL shows the order', async () => {
  const { productId, stock, order } = await product();
  behindProxy.proxy.swallowReplies();
  const placed = order();
  await until(async () => (await lab.app.inventory.inventory(productId)).orders === 2, 'the INSERT committed');
  await behindProxy.proxy.cut();
  expect((await placed).outcome).toBe('error');
  expect(await stock()).toBe('8');

  await behindProxy.proxy.restore();
  const inventory = await lab.app.inventory.settledInventory(productId, 10_000);
  expect(inventory.settledLate).toEqual({ pending: 0, kept: 1, givenBack: 0 });
  expect(inventory).toMatchObject({ remaining: 8, sold: 2, orders: 2, lost: 0, soldTwice: 0, storesAgree: true });
});
