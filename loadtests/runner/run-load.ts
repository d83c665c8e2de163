import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { isStrategyName, RUN_LIMITS, RUN_TOKEN_HEADER, STRATEGY_NAMES, type CreateOrderRequest } from '@oversell/contracts';
import { runDoubleClicks, validateDoubleClick } from './double-click';
import { validateLoadProfile } from './load-profile';
import { tickEverySecond } from './ticks';
import { LOAD_TARGETS, type LoadOptions, type LoadSummary, type LoadTick } from './summary';
import { InvalidFieldError } from './validation';

export interface RunLoadOptions extends LoadOptions {
  onTick?: (tick: LoadTick) => void;
  /** Aborting stops the load early; the promise still resolves with what was measured so far. */
  signal?: AbortSignal;
}

const TARGET_PATHS = { orders: '/api/orders', noop: '/api/noop' } as const;

/**
 * Drives the load with autocannon. Closed model: `connections` each send as fast as answered. Open
 * model: `arrivalRate` requests per second spread over the connections. Bounded by `totalRequests`
 * (exactly that many are sent) and/or `durationSec`; a count-bounded run is still cut off at the
 * duration, or at RUN_LIMITS.maxDurationSec when none is given.
 */
export async function runLoad(options: RunLoadOptions): Promise<LoadSummary> {
  const { urls, target, productId, strategy, runToken, onTick, signal } = validateLoadOptions(options);
  const profile = validateLoadProfile(options.profile, 'profile');
  const order: CreateOrderRequest = { productId, quantity: profile.quantity ?? 1, strategy };
  const stopAfterSec = profile.durationSec ?? RUN_LIMITS.maxDurationSec;
  if (options.doubleClick) return runDoubleClicks({ urls, order, runToken, profile, doubleClick: options.doubleClick, stopAfterSec, onTick, signal });

  return new Promise((resolve, reject) => {
    // Declared before autocannon starts: it calls back synchronously when it rejects the options.
    let progress = NO_PROGRESS;
    let finished = false;
    // With `amount` set autocannon ignores `duration`, so the time bound is enforced here.
    const stopTimer = profile.totalRequests !== undefined ? setTimeout(stop, stopAfterSec * 1000) : undefined;
    const instance = autocannon(
      {
        // autocannon spreads connections round-robin over an array of URLs; its typings only admit a string.
        url: urls.map((base) => new URL(TARGET_PATHS[target], base).toString()) as unknown as string,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(runToken ? { [RUN_TOKEN_HEADER]: runToken } : {}) },
        body: JSON.stringify(order),
        // autocannon refuses more connections than requests; a tiny count-bounded run needs fewer.
        connections: Math.min(profile.connections, profile.totalRequests ?? Infinity),
        amount: profile.totalRequests,
        duration: stopAfterSec,
        overallRate: profile.arrivalRate,
        // Every order gets its own idempotency key, or the service would replay the first one.
        requests:
          target === 'orders'
            ? [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ ...order, idempotencyKey: randomUUID() }) }) }]
            : undefined,
      },
      (error, result) => {
        finished = true;
        clearTimeout(stopTimer);
        progress.stop();
        signal?.removeEventListener('abort', stop);
        if (error) reject(error);
        else resolve(toSummary(result));
      },
    );
    if (finished) return;
    progress = trackProgress(instance, onTick);
    function stop(): void {
      instance.stop();
    }
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) stop();
  });
}

/** Checks the options every driver shares (the profile is checked by validateLoadProfile); throws InvalidFieldError. */
export function validateLoadOptions<T extends LoadOptions>(options: T): T {
  if (!Array.isArray(options.urls) || options.urls.length === 0) {
    throw new InvalidFieldError('urls', 'must list at least one base URL');
  }
  for (const url of options.urls) {
    if (!/^https?:\/\//.test(url) || !URL.canParse(url)) {
      throw new InvalidFieldError('urls', `must hold http(s) URLs (got ${JSON.stringify(url)})`);
    }
  }
  if (!LOAD_TARGETS.includes(options.target)) {
    throw new InvalidFieldError('target', `must be one of ${LOAD_TARGETS.join(', ')} (got ${JSON.stringify(options.target)})`);
  }
  if (!Number.isSafeInteger(options.productId) || options.productId < 1) {
    throw new InvalidFieldError('productId', `must be a positive integer (got ${JSON.stringify(options.productId)})`);
  }
  if (!isStrategyName(options.strategy)) {
    throw new InvalidFieldError('strategy', `must be one of ${STRATEGY_NAMES.join(', ')} (got ${JSON.stringify(options.strategy)})`);
  }
  if (options.doubleClick !== undefined) {
    if (options.target !== 'orders') throw new InvalidFieldError('doubleClick', 'applies to orders only (the no-op takes no key)');
    validateDoubleClick(options.doubleClick);
  }
  return options;
}

interface Progress {
  stop(): void;
}
const NO_PROGRESS: Progress = { stop: () => undefined };

/** Counts responses as they arrive so ticks can report the status mix while the run is going. */
function trackProgress(instance: autocannon.Instance, onTick: RunLoadOptions['onTick']): Progress {
  if (!onTick) return NO_PROGRESS;
  const statusCounts: Record<string, number> = {};
  let requests = 0;
  let errors = 0;
  instance.on('response', (_client, statusCode) => {
    requests += 1;
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
  });
  instance.on('reqError', () => {
    errors += 1;
  });
  return tickEverySecond(() => ({ requests, statusCounts, errors }), onTick);
}

function toSummary(result: autocannon.Result): LoadSummary {
  const statusCounts: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCounts[status] = stats.count ?? 0;
  }
  const requests = result.requests.total;
  return {
    driver: 'node',
    requests,
    sent: result.requests.sent,
    durationSec: result.duration,
    statusCounts,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    throughput: result.duration > 0 ? Math.round((requests / result.duration) * 10) / 10 : 0,
    latency: {
      count: requests,
      mean: result.latency.mean,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
  };
}
