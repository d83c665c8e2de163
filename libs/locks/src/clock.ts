/**
 * Wall-clock time in ms with microsecond fractions, for lock events compared across processes.
 *
 * Date.now() only has whole milliseconds: a release and the next grant often fall in the same one, and
 * their order is lost. performance.timeOrigin + performance.now() has the resolution but not the
 * agreement: Node samples timeOrigin's wall clock and its monotonic start at slightly different moments
 * of start-up, so processes disagree by a few ms (measured here: 2 ms idle, tens of ms on a busy
 * start). So the monotonic clock is anchored here, once, at the instant Date.now() ticks over to a new
 * millisecond (a few ms of spinning, once per process): every process then agrees with the one system
 * clock to within tens of microseconds. findExclusionViolations (libs/contracts) allows for what is left.
 */
const CALIBRATION_TICKS = 5;

const anchor = (() => {
  // Sampled at several tick-overs; a sample whose monotonic read came late (the process was preempted
  // in between) shows a smaller wall − monotonic offset, so the largest offset is the truest one.
  let best = { wall: 0, monotonic: 0 };
  for (let i = 0; i < CALIBRATION_TICKS; i++) {
    const start = Date.now();
    let wall = start;
    while (wall === start) wall = Date.now();
    const monotonic = performance.now();
    if (i === 0 || wall - monotonic > best.wall - best.monotonic) best = { wall, monotonic };
  }
  return best;
})();

export function preciseNow(): number {
  return anchor.wall + (performance.now() - anchor.monotonic);
}
