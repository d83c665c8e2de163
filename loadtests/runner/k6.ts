import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { pinnedCommand } from './cpu-pinning';
import { validateLoadProfile } from './load-profile';
import { validateLoadOptions } from './run-load';
import type { LoadOptions, LoadSummary } from './summary';

/** loadtests/k6, seen from runner/ and dist/ alike. */
export const K6_SCRIPTS_DIR = resolve(__dirname, '..', 'k6');

/**
 * Names the k6 scripts give their counters (see k6/lib/common.js): one counter per response status of an
 * order, `order_status_0` for requests that got no response, and `order_timeouts`.
 */
const STATUS_METRIC_PREFIX = 'order_status_';
const NO_RESPONSE_STATUS = '0';
const TIMEOUT_METRIC = 'order_timeouts';
/** Latency of order requests only, without the setup's reset and teardown's inventory calls. */
const ORDER_DURATION_METRIC = 'http_req_duration{endpoint:order}';

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The k6 binary: $K6_BIN when set, else `k6` on the PATH; null when there is none. Never downloads
 * anything: installing k6 is the user's call (see loadtests/README.md).
 */
export function findK6(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.K6_BIN) return isExecutableFile(env.K6_BIN) ? env.K6_BIN : null;
  const binary = process.platform === 'win32' ? 'k6.exe' : 'k6';
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, binary);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

interface K6Metric {
  values: Record<string, number>;
}

/** The part of k6's handleSummary() data this module reads. */
export interface K6SummaryData {
  metrics: Record<string, K6Metric | undefined>;
  state?: { testRunDurationMs?: number };
}

/** Maps k6's end-of-test data onto the Node runner's LoadSummary, so both drivers report alike. */
export function parseK6Summary(data: K6SummaryData): LoadSummary {
  const statusCounts: Record<string, number> = {};
  let errors = 0;
  for (const [name, metric] of Object.entries(data.metrics)) {
    if (!name.startsWith(STATUS_METRIC_PREFIX) || !metric) continue;
    const status = name.slice(STATUS_METRIC_PREFIX.length);
    const count = metric.values.count ?? 0;
    if (status === NO_RESPONSE_STATUS) errors += count;
    else if (count > 0) statusCounts[status] = count;
  }
  const requests = Object.values(statusCounts).reduce((sum, count) => sum + count, 0);
  const non2xx = Object.entries(statusCounts)
    .filter(([status]) => !status.startsWith('2'))
    .reduce((sum, [, count]) => sum + count, 0);
  const durationSec = Math.round(data.state?.testRunDurationMs ?? 0) / 1000;
  const duration = (data.metrics[ORDER_DURATION_METRIC] ?? data.metrics.http_req_duration)?.values ?? {};
  return {
    driver: 'k6',
    requests,
    sent: requests + errors,
    durationSec,
    statusCounts,
    non2xx,
    errors,
    timeouts: data.metrics[TIMEOUT_METRIC]?.values.count ?? 0,
    throughput: durationSec > 0 ? Math.round((requests / durationSec) * 10) / 10 : 0,
    latency: {
      count: requests,
      mean: duration.avg ?? 0,
      p50: duration.med ?? 0,
      p90: duration['p(90)'] ?? 0,
      p99: duration['p(99)'] ?? 0,
      max: duration.max ?? 0,
    },
  };
}

export interface RunK6Options {
  /** The k6 binary; found with findK6() when omitted. */
  k6Bin?: string;
  /** Kills k6 when aborted. */
  signal?: AbortSignal;
}

/**
 * Runs a k6 script (a path, or a file name in loadtests/k6) with `env` passed as `-e KEY=VALUE`, k6's
 * output going to this process's stdout/stderr. The script's handleSummary() writes its data to
 * SUMMARY_PATH, which is read back and mapped to a LoadSummary. A run whose thresholds failed (k6 exit
 * code 99) still resolves: the figures are what the caller wants either way.
 */
export function runK6(script: string, env: Record<string, string> = {}, options: RunK6Options = {}): Promise<LoadSummary> {
  const k6 = options.k6Bin ?? findK6();
  if (!k6) return Promise.reject(new Error('k6 not found: install it (see loadtests/README.md) or set K6_BIN'));
  const scriptPath = isAbsolute(script) ? script : join(K6_SCRIPTS_DIR, script);
  const workDir = mkdtempSync(join(tmpdir(), 'oversell-k6-'));
  const summaryPath = join(workDir, 'summary.json');
  const envArgs = Object.entries({ ...env, SUMMARY_PATH: summaryPath }).flatMap(([key, value]) => ['-e', `${key}=${value}`]);

  return new Promise<LoadSummary>((resolvePromise, reject) => {
    const child = spawn(...pinnedCommand('load', k6, ['run', ...envArgs, scriptPath]), { stdio: ['ignore', 'inherit', 'inherit'], signal: options.signal });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      try {
        resolvePromise(parseK6Summary(JSON.parse(readFileSync(summaryPath, 'utf8')) as K6SummaryData));
      } catch {
        reject(new Error(`k6 ended (${signal ?? `code ${code}`}) without a readable summary at ${summaryPath}`));
      }
    });
  }).finally(() => rmSync(workDir, { recursive: true, force: true }));
}

/** The script runK6Load() drives: it reads every variable of k6LoadEnv(). */
const LOAD_SCRIPT = 'flash-sale.js';

/**
 * LoadOptions as flash-sale.js's environment: the profile's fields override the scenario file's load,
 * and SKIP_RESET=true because the caller has reset the product already. Fields the profile leaves out
 * are left out here too, so the script applies its own defaults (see loadtests/README.md).
 */
function k6LoadEnv(options: LoadOptions): Record<string, string> {
  const { urls, productId, strategy, target, runToken, doubleClick } = validateLoadOptions(options);
  const profile = validateLoadProfile(options.profile, 'profile');
  const optional: Record<string, string | number | undefined> = {
    DURATION_SEC: profile.durationSec,
    TOTAL_REQUESTS: profile.totalRequests,
    ARRIVAL_RATE: profile.arrivalRate,
    QUANTITY: profile.quantity,
    RUN_TOKEN: runToken,
    DOUBLE_CLICK_COPIES: doubleClick?.copies,
    DOUBLE_CLICK_KEY: doubleClick && String(doubleClick.idempotencyKey),
  };
  const env: Record<string, string> = {
    BASE_URL: urls.join(','),
    PRODUCT_ID: String(productId),
    STRATEGY: strategy,
    TARGET: target,
    CONNECTIONS: String(profile.connections),
    SKIP_RESET: 'true',
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined && value !== '') env[key] = String(value);
  }
  return env;
}

/**
 * Drives `options` with k6 instead of the Node runner: the same load on the same product, through
 * flash-sale.js. Never resets the product (the caller does, as with runLoad and forkLoad); the script's
 * teardown still reads the inventory of an orders run. Rejects with InvalidFieldError on bad options,
 * before k6 starts, and like runK6 when k6 is missing or leaves no summary.
 */
export function runK6Load(options: LoadOptions, k6Options?: RunK6Options): Promise<LoadSummary> {
  let env: Record<string, string>;
  try {
    env = k6LoadEnv(options);
  } catch (error) {
    return Promise.reject(error);
  }
  return runK6(LOAD_SCRIPT, env, k6Options);
}
