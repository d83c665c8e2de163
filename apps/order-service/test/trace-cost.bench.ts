import { LockEvents, OrderTraces, RedisConnections, STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import { freshProductId, useStockTestApp } from '@oversell/stock/testing';
import { MetricsService, OrderFigures, RunFigureKeys } from '@oversell/lab';

/**
 * What the run trace costs: CPU µs per order (process.cpuUsage) with it on (every order inside the
 * window), on but with the window full (TRACED_ORDERS=1: the order after the first is outside it) and
 * off (TRACED_ORDERS=0), in blocks that take turns in one process so drift hits every side alike. Each
 * block is a fresh run of ORDERS sequential uuid-lua orders on the real stores. It prints figures and
 * asserts no time. Run: npx jest --testMatch '**\/trace-cost.bench.ts'.
 */
const ORDERS = 400;
const ROUNDS = 150;
const SIDES = [
  { name: 'on', traced: 512 },
  { name: 'full', traced: 1 },
  { name: 'off', traced: 0 },
] as const;
/**
 * Warm-up rounds are discarded until the JIT has settled: until every side's block is within SETTLED of
 * its block the round before (at least MIN_WARM_UP rounds, at most MAX_WARM_UP). The first blocks run
 * at twice the settled cost, so a single warm-up block is not enough.
 */
const SETTLED = 0.1;
const MIN_WARM_UP = 3;
const MAX_WARM_UP = 20;

// Its keys are removed afterwards, its connections closed.
const lab = useStockTestApp();

async function block(traced: number): Promise<number> {
  const options = lab.app.app.get<StockOptions>(STOCK_OPTIONS);
  const figures = new OrderFigures(lab.app.app.get(RedisConnections), new LockEvents(), lab.app.app.get(OrderTraces), new MetricsService(), options, undefined, traced);
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

/** One block of each side, the order turning each round (on–full–off, full–off–on, …). */
async function round(r: number): Promise<number[]> {
  const cpu: number[] = [];
  for (let k = 0; k < SIDES.length; k++) {
    const side = (r + k) % SIDES.length;
    cpu[side] = await block(SIDES[side].traced);
  }
  return cpu;
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => {
  const s = sorted(xs);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
/**
 * How sure a median of paired ratios is: the 5th and 95th percentiles of the median over 2 000 resamples
 * of the rounds (a bootstrap), with a fixed seed so the same rounds print the same interval.
 */
const interval90 = (xs: number[]) => {
  let seed = 1;
  const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
  const medians = sorted(Array.from({ length: 2000 }, () => median(xs.map(() => xs[Math.floor(random() * xs.length)]))));
  return `${medians[100].toFixed(3)}–${medians[1899].toFixed(3)}`;
};
/** The middle half: the 25th to the 75th percentile. */
const spread = (xs: number[], digits: number) => {
  const s = sorted(xs);
  return `${s[Math.floor((s.length - 1) / 4)].toFixed(digits)}–${s[Math.ceil(((s.length - 1) * 3) / 4)].toFixed(digits)}`;
};

it('measures the CPU µs per order with the trace on, on with its window full, and off, taking turns', async () => {
  let previous = await round(0);
  let warmUp = 1;
  const discarded = [previous];
  for (; warmUp < MAX_WARM_UP; warmUp++) {
    const now = await round(warmUp);
    discarded.push(now);
    const settled = now.every((x, side) => Math.abs(x / previous[side] - 1) <= SETTLED);
    previous = now;
    if (settled && warmUp + 1 >= MIN_WARM_UP) break;
  }
  const rounds: number[][] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(warmUp + 1 + r));
  const of = (side: number) => rounds.map((cpu) => cpu[side]);
  console.log(`warm-up: ${discarded.length} rounds discarded (${SIDES.map((s, side) => `${s.name} ${discarded.map((cpu) => cpu[side].toFixed(0)).join(' ')}`).join('; ')})`);
  for (const [side, { name, traced }] of SIDES.entries())
    console.log(`${name.padEnd(4)} (TRACED_ORDERS=${traced}) µs/order: median ${median(of(side)).toFixed(1)}, middle half ${spread(of(side), 0)}`);
  // Each round's blocks side by side: they share the machine's load of the moment.
  const off = SIDES.findIndex((s) => s.name === 'off');
  for (const [side, { name }] of SIDES.entries()) {
    if (side === off) continue;
    const ratios = rounds.map((cpu) => cpu[side] / cpu[off]);
    console.log(`${name} ÷ off: ${(median(of(side)) / median(of(off))).toFixed(3)} (medians), ${median(ratios).toFixed(3)} (median of the ${ROUNDS} rounds, middle half ${spread(ratios, 3)}; 90 % interval of that median ${interval90(ratios)})`);
  }
}, 1_200_000);

it("measures the recorder alone: CPU µs per traced order (6 steps noted, then flushed to Redis), without the order's own noise", async () => {
  const options = lab.app.app.get<StockOptions>(STOCK_OPTIONS);
  const traces = new OrderTraces();
  const figures = new OrderFigures(lab.app.app.get(RedisConnections), new LockEvents(), traces, new MetricsService(), options, undefined, 512);
  await figures.onModuleInit();
  // Blocks of 8 runs, a full window each; the first WARM_UP blocks discarded.
  const [blocks, runs, WARM_UP] = [12, 8, 4];
  const started = Date.now();
  const settingsOfRun = (r: number) => ({ runId: `bench-${r}-${started}`, strategy: 'uuid-lua' }) as const;
  try {
    const cpu: number[] = [];
    for (let b = 0; b < blocks; b++) {
      const before = process.cpuUsage();
      for (let r = b * runs; r < (b + 1) * runs; r++) {
        const settings = settingsOfRun(r);
        for (let o = 0; o < 512; o++) {
          const order = traces.hook!(settings as never, `${r}-${o}`)!;
          for (const step of [{ target: 'lock', action: 'granted', value: 2000 }, { target: 'stock', action: 'GET', value: 5 }, { target: 'stock', action: 'SET', value: 4 }, { target: 'orders', action: 'INSERT' }, { target: 'lock', action: 'released', value: 'true' }, { target: 'lock', action: 'released', value: 'true' }])
            order(step);
        }
        expect(await figures.flush()).toBe(true);
      }
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / (runs * 512));
    }
    const kept = cpu.slice(WARM_UP);
    console.log(`recorder: ${median(kept).toFixed(2)} µs CPU per traced order (6 steps, noted and flushed; median of ${kept.length} blocks, middle half ${spread(kept, 2)}; discarded ${cpu.slice(0, WARM_UP).map((x) => x.toFixed(1)).join(' ')})`);
    // What a full window costs where it is kept: one run's steps in Redis (the instance holds them only until the next flush).
    const redis = lab.app.app.get(RedisConnections).control;
    const key = new RunFigureKeys(options.keyPrefix, settingsOfRun(0).runId).traceSteps;
    const bytes = Number(await redis.memory('USAGE', key));
    console.log(`window: ${bytes} bytes in Redis for 512 traced orders of 6 steps (${(bytes / 512).toFixed(0)} bytes per order)`);
  } finally {
    await figures.onApplicationShutdown();
  }
});
