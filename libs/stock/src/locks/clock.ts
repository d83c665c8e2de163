/**
 * Wall-clock time in ms with microsecond fractions, for lock events compared across processes.
 * Date.now() only has whole milliseconds: a release and the next grant often fall in the same one, and
 * their order would be lost. timeOrigin + the monotonic clock keeps sub-ms order; every process on the
 * machine anchors it to the same system clock, which NTP slews for all of them alike.
 */
export function preciseNow(): number {
  return performance.timeOrigin + performance.now();
}
