import type { LockBenchPass } from './lock-bench-report';
import { medianRow, passOrder } from './passes';

const pass = (sectionsPerSec: number, p99: number, loadAverage: number, sections: number, lostIncrements = 0): LockBenchPass => ({
  lock: 'watchdog',
  sections,
  counter: sections - lostIncrements,
  lostIncrements,
  timeouts: 0,
  errors: 0,
  errorSamples: [],
  elapsedMs: 8000,
  sectionsPerSec,
  perSectionMs: { held: 0.1, between: 0.2 },
  waitMs: { p50: p99 / 2, p99, max: p99 * 2 },
  bound: { sectionsPerSec: sectionsPerSec * 2, roundTripMs: 0.5 },
  efficiency: 0.5,
  cpuUsPerSection: { processes: sectionsPerSec / 10, redis: 50 },
  loadAverage,
});

describe('bench:locks passes', () => {
  it('starts each pass one lock further on, so every lock runs in every position', () => {
    const locks = ['watchdog', 'redis-semaphore', 'redlock-lib'] as const;
    expect([0, 1, 2, 3].map((n) => passOrder(locks, n))).toEqual([
      ['watchdog', 'redis-semaphore', 'redlock-lib'],
      ['redis-semaphore', 'redlock-lib', 'watchdog'],
      ['redlock-lib', 'watchdog', 'redis-semaphore'],
      ['watchdog', 'redis-semaphore', 'redlock-lib'],
    ]);
  });

  it("a lock's row is its median pass by sections/s, with each pass beside it and the correctness counts of all", () => {
    const row = medianRow([pass(3300, 80, 1.5, 26_400), pass(3100, 90, 2.5, 24_800, 2), pass(3500, 70, 0.5, 28_000)]);
    // The middle pass's own figures, not a mix: its wait and CPU belong with its sections/s.
    expect(row).toMatchObject({ sectionsPerSec: 3300, waitMs: { p99: 80 }, cpuUsPerSection: { processes: 330 }, bound: { sectionsPerSec: 6600 } });
    expect(row.passes).toEqual([
      { sectionsPerSec: 3300, waitP99Ms: 80, loadAverage: 1.5 },
      { sectionsPerSec: 3100, waitP99Ms: 90, loadAverage: 2.5 },
      { sectionsPerSec: 3500, waitP99Ms: 70, loadAverage: 0.5 },
    ]);
    expect(row).toMatchObject({ sections: 79_200, counter: 79_198, lostIncrements: 2 });
    expect(row).not.toHaveProperty('loadAverage');
  });

  it('takes the lower middle pass of an even count', () => {
    expect(medianRow([pass(4000, 1, 1, 1), pass(3000, 1, 1, 1)]).sectionsPerSec).toBe(3000);
  });
});
