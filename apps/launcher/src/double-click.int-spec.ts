import type { InventoryView } from '@oversell/contracts';
import { runLoad } from '@oversell/loadtests';
import type { Lab } from './lab';
import { startTestLab } from './testing/test-lab';

/** The Node runner's double click against the real lab (2 instances behind the gateway, real Redis and MySQL). */
let lab: Lab;

beforeAll(async () => {
  lab = await startTestLab(2);
});

afterAll(async () => {
  await lab?.stop();
});

async function freshProduct(stock: number): Promise<number> {
  const productId = 100_000 + Math.floor(Math.random() * 2_000_000_000);
  const response = await fetch(`${lab.gatewayUrl}/api/products/${productId}/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stock, strategy: 'uuid-lua' }),
  });
  expect(response.status).toBe(200);
  return productId;
}

const inventoryOf = async (productId: number) => (await (await fetch(`${lab.gatewayUrl}/api/products/${productId}/inventory`)).json()) as InventoryView;

/** `clicks` orders of one unit on a fresh uuid-lua product of `stock` units, each sent 3 times at once by 4 buyers. */
async function doubleClicks(stock: number, clicks: number, idempotencyKey: boolean) {
  const productId = await freshProduct(stock);
  const summary = await runLoad({
    urls: [lab.gatewayUrl],
    target: 'orders',
    productId,
    strategy: 'uuid-lua',
    profile: { connections: 4, totalRequests: clicks },
    doubleClick: { copies: 3, idempotencyKey },
  });
  return { statusCounts: summary.statusCounts, inventory: await inventoryOf(productId) };
}

it('with the idempotency key, k copies sent at once make one order per click, and every copy gets that order', async () => {
  const { statusCounts, inventory } = await doubleClicks(100, 12, true);
  // One copy per click took the stock (201); the other two were answered the same order (200, replayed).
  expect(statusCounts).toEqual({ '201': 12, '200': 24 });
  expect(inventory).toMatchObject({ orders: 12, sold: 12, remaining: 88, oversold: 0, storesAgree: true });
});

it('without the key, every copy is an order of its own while the stock lasts', async () => {
  const { statusCounts, inventory } = await doubleClicks(20, 8, false);
  // 8 clicks × 3 copies = 24 orders asked for; 20 units: 20 sold, 4 sold out.
  expect(statusCounts).toEqual({ '201': 20, '409': 4 });
  expect(inventory).toMatchObject({ orders: 20, sold: 20, remaining: 0, oversold: 0, storesAgree: true });
});
