import type { RunParams } from '@oversell/contracts';

/**
 * The settings that decide whether two runs' figures can be read side by side: a stock-5 preset run
 * sells out in a blink where a stock-100 run contends for seconds, so their counts say different things.
 */
export interface ComparedSettings {
  initialStock: number;
  lockTtlMs: number | null;
  businessDelayMs: number | null;
  connections: number;
  /** The kinds of the faults injected, in order; empty when none. */
  faults: string;
}

export function comparedSettings(params: RunParams): ComparedSettings {
  return {
    initialStock: params.initialStock,
    lockTtlMs: params.lockTtlMs ?? null,
    businessDelayMs: params.businessDelayMs ?? null,
    connections: params.load.connections,
    faults: (params.faults ?? []).map((f) => f.kind).join(' '),
  };
}

/** One string per distinct set of compared settings, for filtering and for a select's values. */
export function settingsKey(params: RunParams): string {
  return JSON.stringify(comparedSettings(params));
}
