import type { LockName } from './locks-under-test';
import type { LockBenchPass, LockBenchRow } from './lock-bench-report';

/**
 * The locks in the order pass `pass` measures them: each pass starts one lock further on, so over as
 * many passes as locks every lock runs in every position, and none always runs first (on a warm Redis)
 * or last (while the machine's other load has grown).
 */
export function passOrder(locks: readonly LockName[], pass: number): LockName[] {
  const start = pass % Math.max(1, locks.length);
  return [...locks.slice(start), ...locks.slice(0, start)];
}

/**
 * One lock's row from its passes: the timings of its median pass by sections/s (the lower middle one of an even count) (one pass, so its wait,
 * CPU and bound figures belong together), each pass's sections/s and load beside it; the correctness
 * counts summed over every pass, so a lost increment or an error in any pass shows.
 */
export function medianRow(passes: readonly LockBenchPass[]): LockBenchRow {
  if (passes.length === 0) throw new Error('medianRow: no passes');
  const sorted = [...passes].sort((a, b) => a.sectionsPerSec - b.sectionsPerSec);
  const { loadAverage: _load, ...median } = sorted[Math.floor((sorted.length - 1) / 2)];
  const total = (field: 'sections' | 'counter' | 'lostIncrements' | 'timeouts' | 'errors') => passes.reduce((sum, pass) => sum + pass[field], 0);
  return {
    ...median,
    sections: total('sections'),
    counter: total('counter'),
    lostIncrements: total('lostIncrements'),
    timeouts: total('timeouts'),
    errors: total('errors'),
    errorSamples: passes.flatMap((pass) => pass.errorSamples).slice(0, 3),
    passes: passes.map((pass) => ({ sectionsPerSec: pass.sectionsPerSec, waitP99Ms: pass.waitMs.p99, loadAverage: pass.loadAverage })),
  };
}
