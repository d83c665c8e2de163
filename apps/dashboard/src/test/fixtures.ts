import { describeStrategy, ORDER_OUTCOMES, type OutcomeCounts } from '@oversell/contracts';
import type { FaultEvent, LockEvent, RunResult, RunView, Scenario, StrategyDescription, TimelinePoint } from '@oversell/contracts';

/** A strategy as /api/strategies answers it: its catalogue entry in English (no-lock unless named), with no scripts. */
export function strategy(overrides: Partial<StrategyDescription> = {}): StrategyDescription {
  return { ...describeStrategy(overrides.name ?? 'no-lock'), scripts: [], ...overrides };
}

export const STRATEGIES: StrategyDescription[] = [
  strategy(),
  strategy({ name: 'naive-setnx' }),
  strategy({
    name: 'lua-decrement',
    scripts: [{ name: 'decrement.lua', language: 'lua', source: "local s = tonumber(redis.call('GET', KEYS[1]))" }],
  }),
];

export function point(t: number, overrides: Partial<TimelinePoint> = {}): TimelinePoint {
  return { t, attempts: 100, sold: 10, soldTotal: 10 * (t + 1), remaining: 50 - 10 * (t + 1), p99: 12, lockHolders: 1, ...overrides };
}

export function lockEvent(overrides: Partial<LockEvent> = {}): LockEvent {
  return {
    lockKey: 'lock:product:1',
    instance: 'order-1',
    requestId: 'r1',
    requestedAt: 995,
    acquiredAt: 1000,
    releasedAt: 1010,
    expired: false,
    ...overrides,
  };
}

export function faultEvent(overrides: Partial<FaultEvent> = {}): FaultEvent {
  return { kind: 'pause', at: 'release-checked-before-del', instance: 'order-1', requestId: 'r1', startedAt: 1002, endedAt: 1006, ...overrides };
}

/** Outcome counts with every outcome there is at 0 unless given. */
export function outcomeCounts(overrides: Partial<OutcomeCounts> = {}): OutcomeCounts {
  return { ...(Object.fromEntries(ORDER_OUTCOMES.map((outcome) => [outcome, 0])) as OutcomeCounts), attempts: 0, ...overrides };
}

export function result(overrides: Partial<RunResult> = {}): RunResult {
  return {
    counts: outcomeCounts({ attempts: 500, sold: 53, sold_out: 447 }),
    conflictRetries: 0,
    latency: { count: 500, mean: 5, p50: 4, p90: 9, p99: 20, max: 40 },
    throughput: 720,
    durationSec: 5,
    timeline: [point(0), point(1)],
    lockEvents: [],
    reconciliation: {
      initialStock: 50,
      remaining: 0,
      sold: 53,
      orders: 53,
      oversold: 3,
      lost: 0,
      exclusionViolations: 0,
      storesAgree: false,
    },
    instances: [],
    driver: 'node',
    ...overrides,
  };
}

export function run(overrides: Partial<RunView> = {}): RunView {
  return {
    id: 'run-1',
    status: 'completed',
    params: { strategy: 'no-lock', initialStock: 50, businessDelayMs: 20, load: { connections: 60, durationSec: 5 } },
    productId: 1,
    createdAt: '2026-01-01T10:00:00.000Z',
    startedAt: '2026-01-01T10:00:01.000Z',
    finishedAt: '2026-01-01T10:00:06.000Z',
    failure: null,
    result: result(),
    ...overrides,
  };
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'flash-sale',
    description: 'Many buyers, little stock.',
    strategy: 'naive-setnx',
    initialStock: 20,
    lockTtlMs: 100,
    businessDelayMs: 150,
    load: { connections: 200, totalRequests: 5000 },
  },
];

/** loadtests/scenarios/ceiling.json as GET /api/scenarios lists it: for the CLI's `--target noop` only. */
export const CEILING_SCENARIO: Scenario = {
  name: 'ceiling',
  description: 'The no-op endpoint through the same entry point and instances: the throughput ceiling every strategy is measured against.',
  strategy: 'lua-decrement',
  initialStock: 1_000_000,
  load: { connections: 100, durationSec: 8 },
};
