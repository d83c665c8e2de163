// Helpers shared by the k6 scripts. Runs inside k6 (goja), not Node: only k6 modules, no npm packages.
import { check } from 'k6';
import exec from 'k6/execution';
import http from 'k6/http';
import { Counter } from 'k6/metrics';

// The catalogue's names, generated from libs/contracts (npm run generate): k6 cannot import TypeScript.
export { STRATEGY_NAMES } from './strategy-names.js';

/** Error codes a 409/503 order answer may legitimately carry; any other is a failed check. */
const EXPECTED_ERROR_CODES = { 409: ['sold_out', 'conflict'], 503: ['lock_timeout', 'lock_lost', 'fenced', 'lock_unavailable'] };

// One counter per status, read back by runner/k6.ts (order_status_0 = no response at all).
const COUNTED_STATUSES = [0, 200, 201, 202, 400, 404, 409, 413, 422, 500, 502, 503, 504];
const statusCounters = {};
for (const status of COUNTED_STATUSES) statusCounters[status] = new Counter('order_status_' + status);
const otherStatusCounter = new Counter('order_status_other');
const timeoutCounter = new Counter('order_timeouts');
/** k6's error code for a request that timed out. */
const K6_REQUEST_TIMEOUT = 1050;

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/**
 * Path of a scenario file, for open() called by the entry scripts in loadtests/k6/: from there it points
 * at loadtests/scenarios. open() stays in the entry scripts because k6 versions have differed on which
 * base an open() inside an imported module resolves against.
 */
export function scenarioPath(name) {
  return '../scenarios/' + name + '.json';
}

export function parseScenario(text, name) {
  const scenario = JSON.parse(text);
  if (scenario.name !== name) throw new Error('scenario file ' + name + '.json names itself "' + scenario.name + '"');
  const load = scenario.load || {};
  if (!(load.connections > 0)) throw new Error(name + '.json: load.connections must be above 0');
  if (!(load.durationSec > 0) && !(load.totalRequests > 0)) {
    throw new Error(name + '.json: load.durationSec or load.totalRequests is required so the run is bounded');
  }
  // Each fault is checked by the service when the reset carries it (a 400 naming faults[i].field).
  if (scenario.faults !== undefined && !Array.isArray(scenario.faults)) throw new Error(name + '.json: faults must be a list');
  if (scenario.orderP99Ms !== undefined && !(scenario.orderP99Ms > 0)) throw new Error(name + '.json: orderP99Ms must be above 0');
  return scenario;
}

/**
 * The bound on the p99 of order latency, in ms, the run is held to: P99_MS, else the scenario's own
 * orderP99Ms; null when neither sets one. No default of the scripts' own: a scenario built to cross a
 * fixed bound (expiry-pitfall) sets none, rather than failing a default every time by design.
 */
export function orderP99Ms(scenario) {
  return positiveNumberFromEnv('P99_MS', false) || scenario.orderP99Ms || null;
}

/**
 * A positive number from the environment, or undefined when the variable is unset or empty. Anything
 * else is an error naming the variable: a typo must not silently fall back to the scenario's value.
 */
export function positiveNumberFromEnv(name, integer) {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return undefined;
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(value > 0) || (integer && Math.floor(value) !== value)) {
    throw new Error(name + ' must be a positive ' + (integer ? 'integer' : 'number') + ' (got "' + raw + '")');
  }
  return value;
}

/**
 * The scenario file's load with the environment's overrides on top, each optional: CONNECTIONS,
 * QUANTITY and ARRIVAL_RATE replace their field. DURATION_SEC and TOTAL_REQUESTS together are the run's
 * bound: when either is given, both come from the environment and the file's bound is dropped, so
 * TOTAL_REQUESTS alone is cut off at MAX_DURATION_SEC, not at the file's durationSec.
 */
export function loadFromEnv(load) {
  const merged = Object.assign({}, load);
  const connections = positiveNumberFromEnv('CONNECTIONS', true);
  const durationSec = positiveNumberFromEnv('DURATION_SEC', false);
  const totalRequests = positiveNumberFromEnv('TOTAL_REQUESTS', true);
  const arrivalRate = positiveNumberFromEnv('ARRIVAL_RATE', true);
  const quantity = positiveNumberFromEnv('QUANTITY', true);
  if (connections !== undefined) merged.connections = connections;
  if (durationSec !== undefined || totalRequests !== undefined) {
    merged.durationSec = durationSec;
    merged.totalRequests = totalRequests;
  }
  if (arrivalRate !== undefined) merged.arrivalRate = arrivalRate;
  if (quantity !== undefined) merged.quantity = quantity;
  return merged;
}

/**
 * The endpoints a script can load: real orders, or the no-op that validates like an order and does
 * nothing. Marking an order's 409/503 as expected keeps them out of http_req_failed: selling out and
 * losing a lock race are results, not faults.
 */
const TARGETS = {
  orders: {
    path: '/api/orders',
    // 200: a copy of a double click, answered with the order its key already has.
    responseCallback: http.expectedStatuses(200, 201, 202, 409, 503),
    checkName: 'order is 201 (202 queued, 200 for a replayed key) or an expected 409/503',
    isExpected: isExpectedOutcome,
  },
  noop: {
    path: '/api/noop',
    responseCallback: http.expectedStatuses(200),
    checkName: 'noop is 200',
    isExpected: (res) => res.status === 200,
  },
};

/** TARGET from the environment: orders (default) or noop. */
export function targetFromEnv() {
  const target = __ENV.TARGET || 'orders';
  if (!Object.prototype.hasOwnProperty.call(TARGETS, target)) {
    throw new Error('TARGET must be one of ' + Object.keys(TARGETS).join(', ') + ' (got "' + target + '")');
  }
  return target;
}

/**
 * How every order of a run is sent: the target's path, and the x-run-token header when `runToken` is set
 * (the token POST /api/runs answered: the service counts the request in that run, and only then). Build it once, in the init context, and pass it to placeOrder.
 * Requests to either target are tagged endpoint:order, so the order latency metric covers both.
 */
export function orderRequest(target, runToken, doubleClick) {
  const spec = TARGETS[target];
  const headers = Object.assign({}, JSON_HEADERS);
  if (runToken) headers['x-run-token'] = runToken;
  if (doubleClick && target !== 'orders') throw new Error('DOUBLE_CLICK_COPIES applies to TARGET=orders only');
  return {
    path: spec.path,
    params: { headers: headers, tags: { endpoint: 'order' }, responseCallback: spec.responseCallback },
    checkName: spec.checkName,
    isExpected: spec.isExpected,
    doubleClick: doubleClick || null,
  };
}

/**
 * The double-click fault from the environment: DOUBLE_CLICK_COPIES (2 … 10) copies of each order sent at
 * once, all with one idempotency key, or none when DOUBLE_CLICK_KEY=false. When unset, the double-click
 * among `faults` (a scenario's), if any, as the Node runner reads it (copies default 2, key on); else null.
 */
export function doubleClickFromEnv(faults) {
  const copies = positiveNumberFromEnv('DOUBLE_CLICK_COPIES', true);
  const key = __ENV.DOUBLE_CLICK_KEY;
  if (copies === undefined) {
    if (key !== undefined && key !== '') throw new Error('DOUBLE_CLICK_KEY needs DOUBLE_CLICK_COPIES');
    const fault = (faults || []).filter((f) => f.kind === 'double-click')[0];
    return fault ? { copies: fault.copies || 2, idempotencyKey: fault.idempotencyKey !== false } : null;
  }
  if (copies < 2 || copies > 10) throw new Error('DOUBLE_CLICK_COPIES must be from 2 to 10 (got "' + __ENV.DOUBLE_CLICK_COPIES + '")');
  if (key !== undefined && key !== '' && key !== 'true' && key !== 'false') throw new Error('DOUBLE_CLICK_KEY must be true or false (got "' + key + '")');
  return { copies: copies, idempotencyKey: key !== 'false' };
}

/** BASE_URL may list several base URLs, comma-separated; orders go round-robin over them. */
export function baseUrls() {
  return (__ENV.BASE_URL || 'http://127.0.0.1:8080')
    .split(',')
    .map((url) => url.trim().replace(/\/+$/, ''))
    .filter((url) => url.length > 0);
}

/** Round-robin per VU and iteration, so every instance gets an even share whatever the VU count. */
function pickUrl(urls) {
  return urls[(__VU + __ITER) % urls.length];
}

/** PRODUCT_ID from the environment, or a random fresh one (call it in setup(), once, not per VU). */
export function productIdFromEnv(offset) {
  const fromEnv = parseInt(__ENV.PRODUCT_ID || '', 10);
  return fromEnv > 0 ? fromEnv + offset : 100000 + Math.floor(Math.random() * 900000);
}

/** Seeds a fresh run of `strategy` on the product; throwing here aborts the whole test, as it should. */
export function resetProduct(baseUrl, productId, strategy, scenario) {
  const body = {
    stock: scenario.initialStock,
    strategy: strategy,
    lockTtlMs: scenario.lockTtlMs,
    businessDelayMs: scenario.businessDelayMs,
    segments: scenario.segments,
    // The scenario's faults ride on the reset, so every instance injects them (JSON drops them when absent).
    faults: scenario.faults,
  };
  // A reset is an admin action: a lab reachable beyond loopback wants its ADMIN_TOKEN.
  const headers = Object.assign({}, JSON_HEADERS);
  if (__ENV.ADMIN_TOKEN) headers.Authorization = 'Bearer ' + __ENV.ADMIN_TOKEN;
  const res = http.post(baseUrl + '/api/products/' + productId + '/reset', JSON.stringify(body), {
    headers: headers,
    tags: { endpoint: 'reset' },
  });
  if (res.status !== 200 && res.status !== 201) {
    throw new Error('reset of product ' + productId + ' failed: ' + res.status + ' ' + res.body);
  }
}

/**
 * The service's descriptions of `names` (GET /api/strategies), by name: what checkInventory() judges an
 * oversell by. Call it in setup(), so a strategy the service does not know stops the test before any load.
 */
export function describeStrategies(baseUrl, names) {
  const url = baseUrl + '/api/strategies';
  const res = http.get(url, { tags: { endpoint: 'strategies' } });
  if (res.status !== 200) throw new Error('GET ' + url + ' failed: ' + res.status + ' ' + res.body);
  const byName = {};
  for (const description of res.json()) byName[description.name] = description;
  const described = {};
  for (const name of names) {
    if (!byName[name]) throw new Error('GET ' + url + ' does not describe strategy ' + name);
    described[name] = byName[name];
  }
  return described;
}

function fetchInventory(baseUrl, productId) {
  const res = http.get(baseUrl + '/api/products/' + productId + '/inventory', { tags: { endpoint: 'inventory' } });
  if (res.status !== 200) throw new Error('inventory of product ' + productId + ' failed: ' + res.status + ' ' + res.body);
  return res.json();
}

/** A unique key per order: VU, iteration, time and randomness, so no two orders are replays of each other. */
function idempotencyKey(strategy) {
  return ['k6', strategy, __VU, __ITER, Date.now(), Math.random().toString(36).slice(2)].join('-');
}

function orderBody(productId, strategy, quantity, keyed) {
  const order = { productId: productId, quantity: quantity || 1, strategy: strategy };
  if (keyed) order.idempotencyKey = idempotencyKey(strategy);
  return JSON.stringify(order);
}

function countStatus(res) {
  (statusCounters[res.status] || otherStatusCounter).add(1);
  if (res.error_code === K6_REQUEST_TIMEOUT) timeoutCounter.add(1);
}

function isExpectedOutcome(res) {
  // 202: sold, its order queued to be written (orderWrite 'queued').
  if (res.status === 201 || res.status === 202 || res.status === 200) return true;
  const codes = EXPECTED_ERROR_CODES[res.status];
  if (!codes) return false;
  try {
    return codes.indexOf(res.json('error')) >= 0;
  } catch {
    return false;
  }
}

/**
 * One order, sent as `request` (from orderRequest()) says: posted, counted by status, and checked against
 * the outcomes the service may legitimately give.
 */
export function placeOrder(urls, productId, strategy, quantity, request) {
  const url = pickUrl(urls) + request.path;
  const click = request.doubleClick;
  if (!click) return judgeOrder(http.post(url, orderBody(productId, strategy, quantity, true), request.params), request);
  // A double click: every copy the same body (one shared key, or none), all sent at once by http.batch.
  const body = orderBody(productId, strategy, quantity, click.idempotencyKey);
  const copies = [];
  for (let i = 0; i < click.copies; i++) copies.push(['POST', url, body, request.params]);
  return http.batch(copies).map((res) => judgeOrder(res, request))[0];
}

function judgeOrder(res, request) {
  countStatus(res);
  check(res, { [request.checkName]: request.isExpected }, { kind: 'order' });
  return res;
}

/**
 * Whether a strategy must not oversell in a run, from its description (GET /api/strategies) and the run's
 * own settings (its inventory); EXPECT_SAFE=true|false overrides. A strategy that keeps nothing apart
 * (kind none) may oversell under any concurrency; one whose lock expires on a fixed lease may once the
 * business delay reaches the lease; any other must not. The description's `safe` is not the question
 * here: it judges a strategy under faults a load run does not inject (a holder killed, a clock skewed,
 * a release paused).
 */
function expectedSafe(description, run) {
  if (__ENV.EXPECT_SAFE === 'true' || __ENV.EXPECT_SAFE === 'false') return __ENV.EXPECT_SAFE === 'true';
  if (description.kind === 'none') return false;
  if (description.lease === 'fixed') return run.businessDelayMs < run.lockTtlMs;
  return true;
}

/** MAX_DURATION_SEC: the time bound of a run bounded by count only (default 600, RUN_LIMITS.maxDurationSec). */
function maxDurationSec() {
  return positiveNumberFromEnv('MAX_DURATION_SEC', false) || 600;
}

/** How long one executor from executorFor() runs at most, in seconds; also staggers strategies one after another. */
export function executorSeconds(load) {
  if (load.arrivalRate && load.totalRequests) {
    // At `arrivalRate` per second, totalRequests have all started after this long.
    return Math.min(load.durationSec || maxDurationSec(), Math.ceil(load.totalRequests / load.arrivalRate));
  }
  if (load.totalRequests) return load.durationSec || maxDurationSec();
  return load.durationSec;
}

/**
 * Whether this iteration is one of the load's orders. An arrival rate bounded by a count starts
 * iterations for whole seconds (ceil(totalRequests / arrivalRate)), so 500 orders at 300/s would start
 * 600: the ones past totalRequests send nothing, as the Node runner sends exactly that many.
 */
export function withinCount(load) {
  return !load.totalRequests || exec.scenario.iterationInTest < load.totalRequests;
}

/**
 * How long, in seconds, an order already sent may still take once its scenario's time is up: the
 * service's lock wait (LOCK_WAIT_MS, default 10000, its LOCK_WAIT_TIMEOUT_MS) and the business delay, as
 * k6's gracefulStop. Without it k6 waits 30 s for them, or cuts them off, and the next strategy would
 * start while the service still serves this one's.
 */
export function drainSeconds(scenario) {
  const lockWaitMs = positiveNumberFromEnv('LOCK_WAIT_MS', true) || 10000;
  return Math.ceil((lockWaitMs + (scenario.businessDelayMs || 0)) / 1000);
}

/**
 * A k6 scenario for a load (see loadFromEnv), as the Node runner drives the same profile: a constant
 * arrival rate (open model) when arrivalRate is set; else shared iterations when totalRequests is set,
 * exactly that many, cut off at durationSec or MAX_DURATION_SEC; else constant VUs for durationSec.
 */
export function executorFor(load, extra) {
  const seconds = executorSeconds(load) + 's';
  let executor;
  if (load.arrivalRate) {
    executor = {
      executor: 'constant-arrival-rate',
      rate: load.arrivalRate,
      timeUnit: '1s',
      duration: seconds,
      preAllocatedVUs: load.connections,
      maxVUs: load.connections,
    };
  } else if (load.totalRequests) {
    executor = {
      executor: 'shared-iterations',
      vus: Math.min(load.connections, load.totalRequests),
      iterations: load.totalRequests,
      maxDuration: seconds,
    };
  } else {
    executor = { executor: 'constant-vus', vus: load.connections, duration: seconds };
  }
  return Object.assign(executor, extra);
}

/** Only the trend statistics the summaries read; p(99) is not in k6's default set. */
export const SUMMARY_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'];

function metricLine(name, metric) {
  const v = metric.values;
  if (metric.type === 'trend') {
    return name + ': avg=' + fixed(v.avg) + ' p50=' + fixed(v.med) + ' p90=' + fixed(v['p(90)']) + ' p99=' + fixed(v['p(99)']) + ' max=' + fixed(v.max);
  }
  if (metric.type === 'rate') return name + ': ' + fixed(v.rate * 100) + '%';
  if (metric.type === 'counter') return name + ': ' + v.count + ' (' + fixed(v.rate) + '/s)';
  return name + ': ' + JSON.stringify(v);
}

function fixed(n) {
  return typeof n === 'number' ? n.toFixed(2) : '-';
}

function thresholdLines(data) {
  const lines = [];
  for (const name of Object.keys(data.metrics)) {
    const thresholds = data.metrics[name].thresholds || {};
    for (const rule of Object.keys(thresholds)) {
      lines.push('  ' + (thresholds[rule].ok ? 'ok   ' : 'FAIL ') + name + ' ' + rule);
    }
  }
  return lines;
}

/** A short text summary, written here because k6's own textSummary lives in a remote jslib. */
export function textSummary(data, title) {
  const lines = [title];
  const names = Object.keys(data.metrics).sort();
  for (const name of names) {
    if (name === 'checks' || name.indexOf('http_req_duration') === 0 || name.indexOf('order_') === 0 || name === 'http_reqs') {
      lines.push('  ' + metricLine(name, data.metrics[name]));
    }
  }
  lines.push('thresholds:');
  return lines.concat(thresholdLines(data)).join('\n') + '\n';
}

/** handleSummary() result: the raw data as JSON (for runner/k6.ts and the bench) plus the text on stdout. */
export function summaryOutputs(data, scenarioName) {
  const path = __ENV.SUMMARY_PATH || 'bench-results/k6-' + scenarioName + '.json';
  const outputs = { stdout: textSummary(data, 'k6 ' + scenarioName + ' -> ' + path) };
  outputs[path] = JSON.stringify(data, null, 2);
  return outputs;
}

/**
 * Reads the product's inventory after the load and checks that a strategy expected to be safe under the
 * run's settings (see expectedSafe; `description` from describeStrategies()) sold no unit twice. Always
 * records the check (tags kind:inventory, strategy) so its threshold has data either way.
 */
export function checkInventory(baseUrl, productId, description) {
  const strategy = description.name;
  const inventory = fetchInventory(baseUrl, productId);
  const safe = expectedSafe(description, inventory);
  console.log(
    strategy + ' on product ' + productId + ' (lease ' + inventory.lockTtlMs + ' ms, business ' + inventory.businessDelayMs + ' ms): sold ' +
      inventory.sold + '/' + inventory.initialStock + ', remaining ' + inventory.remaining + ', sold twice ' + inventory.soldTwice + ', oversold ' + inventory.oversold +
      ', stores agree ' + inventory.storesAgree + (safe ? '' : ' (not expected to be safe here)'),
  );
  const name = safe ? strategy + ' (safe) sold no unit twice' : strategy + ' (not safe here) may sell units twice';
  check(inventory, { [name]: (inv) => !safe || (inv.soldTwice === 0 && inv.storesAgree) }, { kind: 'inventory', strategy: strategy });
  return inventory;
}
