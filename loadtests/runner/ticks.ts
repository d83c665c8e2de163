import type { LoadTick } from './summary';

/**
 * Calls onTick once a second with the counts `read` gives so far, until stopped. A timer rather than a
 * load generator's own tick keeps the cadence regular (autocannon's also fires once more at the end).
 */
export function tickEverySecond(read: () => Pick<LoadTick, 'requests' | 'statusCounts' | 'errors'>, onTick: (tick: LoadTick) => void): { stop(): void } {
  const startedAt = Date.now();
  let atLastTick = 0;
  const timer = setInterval(() => {
    const { requests, statusCounts, errors } = read();
    onTick({ elapsedSec: Math.round((Date.now() - startedAt) / 100) / 10, requests, lastSecondRequests: requests - atLastTick, statusCounts: { ...statusCounts }, errors });
    atLastTick = requests;
  }, 1000);
  return { stop: () => clearInterval(timer) };
}
