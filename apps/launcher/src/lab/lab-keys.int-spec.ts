import Redis from 'ioredis';
import { throwawayPrefix } from './lab-keys';
import { startTestLab } from '../testing/test-lab';

/**
 * A throwaway lab (a test's, the bench's, the pitfalls') deletes its keys from the shared Redis when it
 * stops: left behind, they pile up, and every product reset of every later lab SCANs past them.
 */
const redis = new Redis({ host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) });

afterAll(() => redis.quit());

const keysUnder = (prefix: string) => redis.keys(`${prefix}:*`);

it('leaves none of its keys behind once stopped: stock, settings, figures, queues', async () => {
  const lab = await startTestLab(1);
  const prefix = lab.instances[0].spec.env.REDIS_KEY_PREFIX!;
  try {
    const productId = 7;
    const json = { 'content-type': 'application/json' };
    const reset = await fetch(`${lab.gatewayUrl}/api/products/${productId}/reset`, { method: 'POST', headers: json, body: JSON.stringify({ stock: 10, strategy: 'lua-decrement' }) });
    expect(reset.status).toBe(200);
    const order = await fetch(`${lab.gatewayUrl}/api/orders`, { method: 'POST', headers: json, body: JSON.stringify({ productId, quantity: 1, strategy: 'lua-decrement' }) });
    expect(order.status).toBe(201);
    expect((await keysUnder(prefix)).length).toBeGreaterThan(0);
  } finally {
    await lab.stop();
  }
  expect(await keysUnder(prefix)).toEqual([]);
});

it("refuses to clear the demo's prefix, none, or one whose pattern would match other keys", () => {
  expect(() => throwawayPrefix({ REDIS_KEY_PREFIX: 'ol' })).toThrow(/REDIS_KEY_PREFIX of its own/);
  expect(() => throwawayPrefix({})).toThrow(/REDIS_KEY_PREFIX of its own/);
  for (const glob of ['*', 'o*', 'ol:x', 'ol[t]']) expect(() => throwawayPrefix({ REDIS_KEY_PREFIX: glob })).toThrow(/may hold only letters/);
  expect(throwawayPrefix({ REDIS_KEY_PREFIX: 'oltest-lab-1' })).toBe('oltest-lab-1');
});
