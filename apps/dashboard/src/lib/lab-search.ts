import { isStrategyName, type FaultSettings, type PitfallRunSettings, type RunParams, type StrategyName } from '@oversell/contracts';

/**
 * The Lab's address filled with a run's settings (`#/lab?strategy=uuid-lua&initialStock=5&…`): a lesson
 * links there so its run can be changed and tried again. The router reads numbers and the faults' list
 * as JSON; anything else in the address is dropped.
 */
export interface LabSearch {
  strategy?: StrategyName;
  initialStock?: number;
  lockTtlMs?: number;
  businessDelayMs?: number;
  segments?: number;
  connections?: number;
  durationSec?: number;
  totalRequests?: number;
  faults?: FaultSettings[];
}

const NUMBERS = ['initialStock', 'lockTtlMs', 'businessDelayMs', 'segments', 'connections', 'durationSec', 'totalRequests'] as const;

export function validateLabSearch(search: Record<string, unknown>): LabSearch {
  const valid: LabSearch = {};
  if (typeof search.strategy === 'string' && isStrategyName(search.strategy)) valid.strategy = search.strategy;
  for (const key of NUMBERS) {
    const value = search[key];
    if (typeof value === 'number' && Number.isFinite(value)) valid[key] = value;
  }
  // The form checks each fault with the service's own rules before a run is sent.
  if (Array.isArray(search.faults)) valid.faults = search.faults.filter((fault): fault is FaultSettings => typeof fault === 'object' && fault !== null && 'kind' in fault);
  return valid;
}

export function labSearchFor(strategy: StrategyName, settings: PitfallRunSettings): LabSearch {
  const { initialStock, lockTtlMs, businessDelayMs, segments, faults, load } = settings;
  return { strategy, initialStock, lockTtlMs, businessDelayMs, segments, connections: load.connections, durationSec: load.durationSec, totalRequests: load.totalRequests, faults };
}

/** The run the address describes, or undefined when it names no strategy and no stock (a plain `#/lab`). */
export function paramsFromLabSearch(search: LabSearch): RunParams | undefined {
  const { strategy, initialStock, lockTtlMs, businessDelayMs, segments, connections, durationSec, totalRequests, faults } = search;
  if (strategy === undefined || initialStock === undefined || connections === undefined) return undefined;
  return { strategy, initialStock, lockTtlMs, businessDelayMs, segments, load: { connections, durationSec, totalRequests }, faults };
}
