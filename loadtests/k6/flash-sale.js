// One hot product under many buyers. Run from the repository root:  k6 run -e STRATEGY=lua-decrement loadtests/k6/flash-sale.js
// Env: SCENARIO (default flash-sale), STRATEGY (default: the scenario's), BASE_URL (comma-separated),
// PRODUCT_ID (default random), P99_MS (latency threshold, default the scenario's orderP99Ms), SUMMARY_PATH, EXPECT_SAFE,
// MAX_DURATION_SEC; load overrides on top of the scenario file: CONNECTIONS, DURATION_SEC, TOTAL_REQUESTS,
// ARRIVAL_RATE, QUANTITY; SKIP_RESET=true (the caller reset the product), RUN_TOKEN (x-run-token header
// on each order), TARGET=orders|noop, DOUBLE_CLICK_COPIES and DOUBLE_CLICK_KEY=true|false (each order sent
// that many times at once, with one idempotency key or none; default: the scenario's double-click fault). The
// scenario's faults go with the reset. runner/k6.ts runK6Load() drives this script with all of them.
import {
  baseUrls,
  doubleClickFromEnv,
  executorFor,
  checkInventory,
  describeStrategies,
  loadFromEnv,
  orderP99Ms,
  orderRequest,
  parseScenario,
  placeOrder,
  productIdFromEnv,
  resetProduct,
  scenarioPath,
  summaryOutputs,
  SUMMARY_TREND_STATS,
  targetFromEnv,
  withinCount,
} from './lib/common.js';

const SCENARIO_NAME = __ENV.SCENARIO || 'flash-sale';
const scenario = parseScenario(open(scenarioPath(SCENARIO_NAME)), SCENARIO_NAME);
const STRATEGY = __ENV.STRATEGY || scenario.strategy;
if (!STRATEGY) throw new Error('STRATEGY is required: scenario ' + SCENARIO_NAME + ' names no default strategy');
const LOAD = loadFromEnv(scenario.load);
const TARGET = targetFromEnv();
// The no-op takes no key: a scenario's double-click applies to orders only.
const REQUEST = orderRequest(TARGET, __ENV.RUN_TOKEN, doubleClickFromEnv(TARGET === 'orders' ? scenario.faults : undefined));
const URLS = baseUrls();
const P99_MS = orderP99Ms(scenario);
// The caller (the order service's run worker) has reset the product itself: resetting again would wipe its run.
const SKIP_RESET = __ENV.SKIP_RESET === 'true';
if (SKIP_RESET && TARGET === 'orders' && !(parseInt(__ENV.PRODUCT_ID || '', 10) > 0)) {
  throw new Error('SKIP_RESET=true needs PRODUCT_ID: a random product has never been reset');
}

function buildThresholds() {
  const thresholds = { 'checks{kind:order}': ['rate>0.99'] };
  if (P99_MS) thresholds['http_req_duration{endpoint:order}'] = ['p(99)<' + P99_MS];
  // A safe strategy that oversold fails the run (see teardown). The no-op sells nothing: no such check.
  if (TARGET === 'orders') thresholds['checks{kind:inventory}'] = ['rate==1'];
  return thresholds;
}

export const options = {
  scenarios: { [SCENARIO_NAME]: executorFor(LOAD, { tags: { strategy: STRATEGY } }) },
  summaryTrendStats: SUMMARY_TREND_STATS,
  thresholds: buildThresholds(),
};

export function setup() {
  // What the inventory check judges an oversell by; the no-op sells nothing and needs none.
  const description = TARGET === 'orders' ? describeStrategies(URLS[0], [STRATEGY])[STRATEGY] : null;
  const productId = productIdFromEnv(0);
  if (!SKIP_RESET) resetProduct(URLS[0], productId, STRATEGY, scenario);
  return { productId: productId, description: description };
}

export default function (data) {
  if (!withinCount(LOAD)) return;
  placeOrder(URLS, data.productId, STRATEGY, LOAD.quantity, REQUEST);
}

export function teardown(data) {
  // The no-op endpoint deducts nothing, so there is no inventory worth reading after it.
  if (TARGET === 'noop') return;
  checkInventory(URLS[0], data.productId, data.description);
}

export function handleSummary(data) {
  return summaryOutputs(data, SCENARIO_NAME);
}
