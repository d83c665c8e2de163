import { NOOP_TARGET, type RunParams } from '@oversell/contracts';

/** What a no-op run is for: a batch's discarded warm-up, or the ceiling itself; undefined for a strategy run. */
export function noopRole(params: RunParams): 'warm-up, discarded' | 'no-op ceiling' | undefined {
  if (params.strategy !== NOOP_TARGET) return undefined;
  return params.warmUp ? 'warm-up, discarded' : 'no-op ceiling';
}

/** A run's settings on one line. A no-op run takes no stock, lock or orders: only its load is said. */
export function describeRunParams(params: RunParams): string {
  const { load } = params;
  const bound = load.durationSec !== undefined ? `${load.durationSec} s` : `${load.totalRequests} requests`;
  const stock =
    params.strategy === NOOP_TARGET
      ? []
      : [
          `stock ${params.initialStock}`,
          params.lockTtlMs !== undefined && `lock TTL ${params.lockTtlMs} ms`,
          params.businessDelayMs !== undefined && `business delay ${params.businessDelayMs} ms`,
          params.segments !== undefined && `${params.segments} segments`,
          params.orderWrite === 'queued' && 'orders written through the queue',
        ];
  return [
    ...stock,
    `${load.connections} connections`,
    bound,
    load.arrivalRate !== undefined && `${load.arrivalRate} req/s arrival`,
    params.scenario && `scenario ${params.scenario}`,
    params.faults?.length && `faults: ${params.faults.map((f) => f.kind).join(', ')}`,
  ]
    .filter(Boolean)
    .join(' · ');
}
