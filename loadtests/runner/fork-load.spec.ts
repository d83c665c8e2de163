import type { LoadTick } from './summary';
import { startFakeOrderService, type FakeOrderService } from './test-support/fake-order-service';

/** The built package, as the order service loads it (forkLoad forks dist/cli.js next to it). */
type BuiltPackage = typeof import('./index');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a condition the test cannot be told about (another process's progress). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await sleep(10);
}

describe('forkLoad from the built package', () => {
  let built: BuiltPackage;
  let service: FakeOrderService;

  beforeAll(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built output, not the source
    built = require('../dist/index.js') as BuiltPackage;
  });
  beforeEach(async () => {
    service = await startFakeOrderService(50);
  });
  afterEach(() => service.close());

  it('runs the load in a child process, reports ticks, and resolves with the summary', async () => {
    const ticks: LoadTick[] = [];
    const summary = await built.forkLoad(
      {
        urls: [service.url],
        target: 'orders',
        productId: 3,
        strategy: 'watchdog',
        // 400/s for 800 requests: about two seconds, so at least one tick.
        profile: { connections: 8, totalRequests: 800, arrivalRate: 400 },
      },
      (tick) => ticks.push(tick),
    );

    expect(summary.driver).toBe('node');
    expect(summary.requests).toBe(800);
    expect(service.orders).toHaveLength(800);
    expect(summary.statusCounts).toEqual({ '201': 50, '409': 750 });
    expect(ticks.length).toBeGreaterThanOrEqual(1);
    expect(ticks[0].requests).toBeGreaterThan(0);
    expect(ticks[0].statusCounts['201']).toBe(50);
  });

  it('kills the child when aborted, and the load stops', async () => {
    const aborted = new AbortController();
    const running = built.forkLoad(
      { urls: [service.url], target: 'orders', productId: 3, strategy: 'watchdog', profile: { connections: 4, durationSec: 20 } },
      undefined,
      aborted.signal,
    );
    await until(() => service.orders.length > 0);
    aborted.abort(new Error('stopped by the test'));

    await expect(running).rejects.toThrow('stopped by the test');
    // The killed child's sockets close; the requests it had sent are all in by then.
    await until(async () => (await service.openConnections()) === 0);
    const afterKill = service.orders.length;
    // Watching for a while is the only way to see that nothing more comes (a live child would send ~1000/s).
    await sleep(500);
    expect(service.orders.length).toBe(afterKill);
    expect(await service.openConnections()).toBe(0);
  });

  it('rejects with the child-side validation message', async () => {
    await expect(
      built.forkLoad({ urls: [service.url], target: 'orders', productId: 3, strategy: 'watchdog', profile: { connections: 4 } }),
    ).rejects.toThrow(/profile\.durationSec or totalRequests is required/);
  });
});
