import { RUN_LIMITS } from '@oversell/contracts';
import { runLoad } from './run-load';
import type { LoadTick } from './summary';
import { startFakeOrderService, type FakeOrderService } from './test-support/fake-order-service';
import { InvalidFieldError } from './validation';

const base = { target: 'orders' as const, productId: 7, strategy: 'lua-decrement' as const };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('runLoad', () => {
  let services: FakeOrderService[] = [];
  const start = async (stock: number) => {
    const service = await startFakeOrderService(stock);
    services.push(service);
    return service;
  };
  afterEach(async () => {
    await Promise.all(services.map((service) => service.close()));
    services = [];
  });

  it('sends exactly totalRequests, and its status counts match what the server answered', async () => {
    const service = await start(30);
    const summary = await runLoad({ ...base, urls: [service.url], profile: { connections: 10, totalRequests: 200, quantity: 2 } });

    expect(service.orders).toHaveLength(200);
    expect(summary.requests).toBe(200);
    expect(summary.statusCounts).toEqual({ '201': 30, '409': 170 });
    expect(service.statusCounts).toEqual({ '201': 30, '409': 170 });
    expect(summary.non2xx).toBe(170);
    expect(summary.errors).toBe(0);
    expect(service.orders[0]).toMatchObject({ productId: 7, quantity: 2, strategy: 'lua-decrement' });
  });

  it('gives every order its own idempotency key', async () => {
    const service = await start(1000);
    await runLoad({ ...base, urls: [service.url], profile: { connections: 8, totalRequests: 500 } });

    const keys = service.orders.map((order) => order.idempotencyKey);
    expect(keys.every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
    expect(new Set(keys).size).toBe(500);
  });

  it("sends the run's token on every order and no-op, and nothing without one", async () => {
    const service = await start(1000);
    await runLoad({ ...base, urls: [service.url], runToken: 'q8Zk3v0m1Yx7P2LrT9bN4cW6sJ5hF0aD', profile: { connections: 4, totalRequests: 40 } });
    await runLoad({ ...base, target: 'noop', urls: [service.url], runToken: 'q8Zk3v0m1Yx7P2LrT9bN4cW6sJ5hF0aD', profile: { connections: 2, totalRequests: 10 } });
    expect(service.runTokens).toEqual(Array(50).fill('q8Zk3v0m1Yx7P2LrT9bN4cW6sJ5hF0aD'));

    const untokened = await start(1000);
    await runLoad({ ...base, urls: [untokened.url], profile: { connections: 2, totalRequests: 10 } });
    expect(untokened.runTokens).toEqual(Array(10).fill(undefined));
  });

  it('spreads connections over several URLs', async () => {
    const [a, b, c] = [await start(10), await start(10), await start(10)];
    const summary = await runLoad({ ...base, urls: [a.url, b.url, c.url], profile: { connections: 6, totalRequests: 300 } });

    expect(summary.requests).toBe(300);
    // Two connections per URL, 50 requests per connection.
    expect([a.orders.length, b.orders.length, c.orders.length]).toEqual([100, 100, 100]);
  });

  it('stops a duration-bounded run on time and reports ticks while it runs', async () => {
    const service = await start(100);
    const ticks: LoadTick[] = [];
    const startedAt = Date.now();
    const summary = await runLoad({ ...base, urls: [service.url], profile: { connections: 5, durationSec: 2 }, onTick: (tick) => ticks.push(tick) });
    const elapsedMs = Date.now() - startedAt;
    const arrivedAtEnd = service.orders.length;
    await sleep(300);
    const arrivedAfterDrain = service.orders.length;
    await sleep(500);

    expect(elapsedMs).toBeGreaterThanOrEqual(1900);
    expect(elapsedMs).toBeLessThan(3500);
    expect(summary.durationSec).toBeCloseTo(2, 0);
    // At most one request per connection was still in flight when it stopped, and nothing came after.
    expect(arrivedAfterDrain - arrivedAtEnd).toBeLessThanOrEqual(5);
    expect(service.orders.length).toBe(arrivedAfterDrain);
    expect(summary.requests).toBeGreaterThan(100);
    expect(ticks.length).toBeGreaterThanOrEqual(1);
    expect(ticks[0].requests).toBeGreaterThan(0);
    expect(ticks[0].statusCounts['201']).toBe(100);
  });

  it('cuts a count-bounded run off at its durationSec', async () => {
    const service = await start(10);
    const startedAt = Date.now();
    const summary = await runLoad({ ...base, urls: [service.url], profile: { connections: 4, totalRequests: 1_000_000, durationSec: 1 } });

    expect(Date.now() - startedAt).toBeLessThan(2500);
    expect(summary.requests).toBeLessThan(1_000_000);
    expect(summary.requests).toBeGreaterThan(0);
  });

  it('keeps roughly to the arrival rate in the open model, on the no-op endpoint', async () => {
    const service = await start(10);
    const summary = await runLoad({
      ...base,
      target: 'noop',
      urls: [service.url],
      profile: { connections: 10, durationSec: 3, arrivalRate: 100 },
    });

    // 100/s for 3 s; timing is not the point, so the band is generous.
    expect(service.noops).toBeGreaterThanOrEqual(180);
    expect(service.noops).toBeLessThanOrEqual(420);
    expect(summary.throughput).toBeGreaterThan(60);
    expect(summary.throughput).toBeLessThan(140);
    expect(service.orders).toHaveLength(0);
  });

  it('stops early when its signal is aborted', async () => {
    const service = await start(10);
    const aborted = new AbortController();
    setTimeout(() => aborted.abort(), 300);
    const startedAt = Date.now();
    const summary = await runLoad({ ...base, urls: [service.url], profile: { connections: 2, durationSec: 10 }, signal: aborted.signal });

    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(summary.requests).toBeGreaterThan(0);
  });

  it('refuses unbounded or out-of-limit profiles, naming the field', async () => {
    const urls = ['http://127.0.0.1:9'];
    await expect(runLoad({ ...base, urls, profile: { connections: 5 } })).rejects.toThrow(/profile\.durationSec or totalRequests is required/);
    await expect(
      runLoad({ ...base, urls, profile: { connections: RUN_LIMITS.maxConnections + 1, durationSec: 1 } }),
    ).rejects.toThrow(/profile\.connections must be an integer at least 1 and at most 2000/);
    await expect(runLoad({ ...base, urls: [], profile: { connections: 1, durationSec: 1 } })).rejects.toBeInstanceOf(InvalidFieldError);
    await expect(runLoad({ ...base, urls, target: 'refunds' as never, profile: { connections: 1, durationSec: 1 } })).rejects.toThrow(/^target/);
  });
});
