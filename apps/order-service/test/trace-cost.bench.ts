import { LockEvents, OrderTraces, RedisConnections, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import { freshProductId, useStockTestApp } from '@oversell/stock/testing';
import { MetricsService, OrderFigures, RunFigureKeys } from '@oversell/lab';

/**
 * What the run trace costs: CPU µs per order with it on (the first 512 orders of a run traced, as
 * deployed) and off (TRACED_ORDERS=0), in blocks that alternate in one process so drift hits both sides
 * alike. Each block is a fresh run of ORDERS sequential uuid-lua orders on the real stores, so every
 * order of an "on" block is inside the window. Run: npx jest --testMatch '**\/trace-cost.bench.ts'.
 */
const ORDERS = 400;
const BLOCKS = 16;

// Its keys are removed afterwards, its connections closed.
const lab = useStockTestApp();

async function block(traced: boolean): Promise<number> {
  const options = lab.app.app.get<StockOptions>(STOCK_OPTIONS);
  const figures = new OrderFigures(lab.app.app.get(RedisConnections), new LockEvents(), lab.app.app.get(OrderTraces), new MetricsService(), options, undefined, traced ? 512 : 0);
  await figures.onModuleInit();
  try {
    const productId = freshProductId();
    await lab.app.reset.reset(productId, { stock: ORDERS, strategy: 'uuid-lua', businessDelayMs: 0 });
    const before = process.cpuUsage();
    for (let i = 0; i < ORDERS; i++) await lab.app.placement.place({ productId, quantity: 1, strategy: 'uuid-lua' });
    expect(await figures.flush()).toBe(true);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / ORDERS;
  } finally {
    await figures.onApplicationShutdown();
  }
}

it('measures the CPU µs per order with the trace on and off, alternated', async () => {
  await block(false); // warm-up: JIT, connections, scripts
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < BLOCKS; i++) {
    if (i % 2) {
      on.push(await block(true));
      off.push(await block(false));
    } else {
      off.push(await block(false));
      on.push(await block(true));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const [m1, m0] = [median(on), median(off)];
  // Each on block beside the off block run next to it: a pair shares the machine's load of the moment.
  const pairRatio = median(on.map((x, i) => x / off[i]));
  console.log(`trace on  µs/order: ${on.map((x) => x.toFixed(0)).join(' ')} (median ${m1.toFixed(1)})`);
  console.log(`trace off µs/order: ${off.map((x) => x.toFixed(0)).join(' ')} (median ${m0.toFixed(1)})`);
  console.log(`on ÷ off: ${(m1 / m0).toFixed(3)} (medians), ${pairRatio.toFixed(3)} (median of the ${BLOCKS} pairs)`);
}, 600_000);

it("measures the recorder alone: CPU µs per traced order (6 steps noted, then flushed to Redis), without the order's own noise", async () => {
  const options = lab.app.app.get<StockOptions>(STOCK_OPTIONS);
  const traces = new OrderTraces();
  const figures = new OrderFigures(lab.app.app.get(RedisConnections), new LockEvents(), traces, new MetricsService(), options, undefined, 512);
  await figures.onModuleInit();
  const runs = 40;
  const started = Date.now();
  const settingsOfRun = (r: number) => ({ runId: `bench-${r}-${started}`, strategy: 'uuid-lua' }) as const;
  try {
    const before = process.cpuUsage();
    for (let r = 0; r < runs; r++) {
      const settings = settingsOfRun(r);
      for (let o = 0; o < 512; o++) {
        const requestId = `${r}-${o}`;
        for (const step of [{ target: 'lock', action: 'granted', value: 2000 }, { target: 'stock', action: 'GET', value: 5 }, { target: 'stock', action: 'SET', value: 4 }, { target: 'orders', action: 'INSERT' }, { target: 'lock', action: 'released', value: 'true' }, { target: 'lock', action: 'released', value: 'true' }])
          traces.hook!(settings as never, requestId, step);
      }
      expect(await figures.flush()).toBe(true);
    }
    const used = process.cpuUsage(before);
    console.log(`recorder: ${((used.user + used.system) / (runs * 512)).toFixed(2)} µs CPU per traced order (6 steps, noted and flushed)`);
    // What a full window costs where it is kept: one run's steps in Redis (the instance holds them only until the next flush).
    const redis = lab.app.app.get(RedisConnections).control;
    const key = new RunFigureKeys(options.keyPrefix, settingsOfRun(0).runId).traceSteps;
    const bytes = Number(await redis.memory('USAGE', key));
    console.log(`window: ${bytes} bytes in Redis for 512 traced orders of 6 steps (${(bytes / 512).toFixed(0)} bytes per order)`);
  } finally {
    await figures.onApplicationShutdown();
  }
});
