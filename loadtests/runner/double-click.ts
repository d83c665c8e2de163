import { randomUUID } from 'node:crypto';
import { FAULT_LIMITS, RUN_TOKEN_HEADER, type CreateOrderRequest, type FaultSettings, type LatencySummary, type LoadProfile } from '@oversell/contracts';
import type { DoubleClick, LoadSummary, LoadTick } from './summary';
import { tickEverySecond } from './ticks';
import { InvalidFieldError } from './validation';

/** The double-click a run's faults ask the load tool for, if any (copies default to 2, the key to on). */
export function doubleClickOf(faults: readonly FaultSettings[] | undefined): DoubleClick | undefined {
  const fault = faults?.find((candidate) => candidate.kind === 'double-click');
  return fault && { copies: fault.copies ?? 2, idempotencyKey: fault.idempotencyKey ?? true };
}

export function validateDoubleClick(value: DoubleClick): DoubleClick {
  if (!Number.isInteger(value.copies) || value.copies < 2 || value.copies > FAULT_LIMITS.maxCopies) {
    throw new InvalidFieldError('doubleClick.copies', `must be a whole number from 2 to ${FAULT_LIMITS.maxCopies} (got ${JSON.stringify(value.copies)})`);
  }
  if (typeof value.idempotencyKey !== 'boolean') {
    throw new InvalidFieldError('doubleClick.idempotencyKey', `must be true or false (got ${JSON.stringify(value.idempotencyKey)})`);
  }
  return value;
}

export interface DoubleClickLoad {
  urls: string[];
  order: CreateOrderRequest;
  runToken?: string;
  profile: LoadProfile;
  doubleClick: DoubleClick;
  stopAfterSec: number;
  onTick?: (tick: LoadTick) => void;
  signal?: AbortSignal;
}

/**
 * A buyer who clicks "buy" several times: each of `connections` buyers sends every order `copies` times
 * at once (concurrent requests, not one after another), all copies with one idempotency key, or none
 * when the double-click has idempotencyKey false. totalRequests counts clicks (the orders meant), so a
 * run sends copies × totalRequests requests. Closed model only: a buyer clicks again once every copy is
 * answered. autocannon cannot send one request on several connections at the same moment, hence fetch.
 */
export async function runDoubleClicks(load: DoubleClickLoad): Promise<LoadSummary> {
  if (load.profile.arrivalRate !== undefined) {
    throw new InvalidFieldError('profile.arrivalRate', 'cannot be combined with a double-click: its buyers click again as soon as answered (closed model)');
  }
  const paths = load.urls.map((base) => new URL('/api/orders', base).toString());
  const headers = { 'content-type': 'application/json', ...(load.runToken ? { [RUN_TOKEN_HEADER]: load.runToken } : {}) };
  const startedAt = Date.now();
  const deadline = startedAt + load.stopAfterSec * 1000;
  const statusCounts: Record<string, number> = {};
  const latencies: number[] = [];
  let clicksLeft = load.profile.totalRequests ?? Infinity;
  let clicks = 0;
  let errors = 0;

  const send = async (url: string, body: string): Promise<void> => {
    const sentAt = performance.now();
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: load.signal });
      await response.arrayBuffer();
      latencies.push(performance.now() - sentAt);
      statusCounts[response.status] = (statusCounts[response.status] ?? 0) + 1;
    } catch {
      if (!load.signal?.aborted) errors += 1;
    }
  };

  const buyer = async (index: number): Promise<void> => {
    while (clicksLeft > 0 && Date.now() < deadline && !load.signal?.aborted) {
      clicksLeft -= 1;
      const url = paths[(index + clicks++) % paths.length];
      const body = JSON.stringify(load.doubleClick.idempotencyKey ? { ...load.order, idempotencyKey: randomUUID() } : load.order);
      await Promise.all(Array.from({ length: load.doubleClick.copies }, () => send(url, body)));
    }
  };

  const ticker = load.onTick ? tickEverySecond(() => ({ requests: latencies.length, statusCounts, errors }), load.onTick) : undefined;
  try {
    await Promise.all(Array.from({ length: Math.min(load.profile.connections, load.profile.totalRequests ?? Infinity) }, (_, index) => buyer(index)));
  } finally {
    ticker?.stop();
  }
  const durationSec = (Date.now() - startedAt) / 1000;
  const requests = latencies.length;
  return {
    driver: 'node',
    requests,
    sent: requests + errors,
    clicks,
    durationSec,
    statusCounts: { ...statusCounts },
    non2xx: Object.entries(statusCounts)
      .filter(([status]) => !status.startsWith('2'))
      .reduce((sum, [, count]) => sum + count, 0),
    errors,
    timeouts: 0,
    throughput: durationSec > 0 ? Math.round((requests / durationSec) * 10) / 10 : 0,
    latency: latencySummary(latencies),
  };
}

function latencySummary(samples: number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (share: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] : 0);
  return {
    count: sorted.length,
    mean: sorted.length ? sorted.reduce((sum, value) => sum + value, 0) / sorted.length : 0,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: sorted.at(-1) ?? 0,
  };
}
