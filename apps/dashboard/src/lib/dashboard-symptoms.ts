import type { StrategyName } from '@oversell/contracts';

/**
 * Where each strategy's behaviour shows on this dashboard: what the explain view tells the audience to
 * look at. Kept here, not in the service's descriptions, because it is about this UI.
 */
export const DASHBOARD_SYMPTOMS: Record<StrategyName, string> = {
  'no-lock':
    'The red oversold counter goes above 0 and the "units sold" line crosses the dashed initial-stock line. ' +
    'The lock timeline stays empty: nothing is locked.',
  'naive-setnx':
    'With a business delay above the lock TTL, bars get a dashed outline (lease expired) and turn red where a ' +
    'second holder took the same key; the oversold counter follows above 0.',
  'uuid-lua':
    'Releases never delete someone else\'s lock, yet with a business delay above the TTL leases still expire: ' +
    'dashed, red overlapping bars in the lock timeline and a red oversold counter.',
  watchdog:
    'Bars may last longer than the TTL instead of expiring: no dashed outlines and no red overlaps, and oversold ' +
    'stays 0 even with a business delay above the TTL.',
  segmented:
    'Several lock keys are held at once, stacked in the lanes but not red (different keys), and throughput ' +
    'beats the single-lock strategies in the compare view. With a business delay above the TTL one segment is ' +
    'granted twice: red bars on that key, and the oversold counter goes above 0.',
  'lua-decrement':
    'Oversold stays 0, the lock timeline is empty (one atomic script, no lock) and its throughput bar is the ' +
    'closest to the no-op ceiling in the compare view.',
  'db-optimistic':
    'Oversold stays 0; lost races show as "conflict retries" (and, past the retry limit, "conflict") in the ' +
    'outcome counts, and p99 latency climbs with the number of connections.',
};
