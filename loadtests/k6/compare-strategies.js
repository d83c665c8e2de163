// Every strategy under the same load, one after another, each on its own freshly reset product.
// Run from the repository root:  k6 run loadtests/k6/compare-strategies.js
// Env: SCENARIO (default compare), STRATEGIES (comma-separated, default all), BASE_URL (comma-separated),
// PRODUCT_ID (first product id; default random), LOCK_WAIT_MS (the service's lock wait, default 10000: how
// long a strategy's last orders may take after its load, before the next strategy starts),
// GAP_SEC (pause between strategies after that, default 2),
// P99_MS (per-strategy latency threshold, default the scenario's orderP99Ms), SUMMARY_PATH, EXPECT_SAFE, MAX_DURATION_SEC;
// load overrides on top of the scenario file: CONNECTIONS, DURATION_SEC, TOTAL_REQUESTS, ARRIVAL_RATE,
// QUANTITY; RUN_TOKEN (x-run-token header on each order); DOUBLE_CLICK_COPIES, DOUBLE_CLICK_KEY (as flash-sale.js).
import {
  baseUrls,
  doubleClickFromEnv,
  checkInventory,
  describeStrategies,
  drainSeconds,
  executorFor,
  executorSeconds,
  loadFromEnv,
  orderP99Ms,
  orderRequest,
  parseScenario,
  placeOrder,
  productIdFromEnv,
  resetProduct,
  scenarioPath,
  STRATEGY_NAMES,
  summaryOutputs,
  SUMMARY_TREND_STATS,
  withinCount,
} from './lib/common.js';

const SCENARIO_NAME = __ENV.SCENARIO || 'compare';
const scenario = parseScenario(open(scenarioPath(SCENARIO_NAME)), SCENARIO_NAME);
const STRATEGIES = __ENV.STRATEGIES ? __ENV.STRATEGIES.split(',').map((s) => s.trim()) : STRATEGY_NAMES;
for (const strategy of STRATEGIES) {
  if (STRATEGY_NAMES.indexOf(strategy) < 0) throw new Error('unknown strategy in STRATEGIES: ' + strategy);
}
const LOAD = loadFromEnv(scenario.load);
const REQUEST = orderRequest('orders', __ENV.RUN_TOKEN, doubleClickFromEnv(scenario.faults));
const URLS = baseUrls();
const P99_MS = orderP99Ms(scenario);
// A strategy's orders still in flight when its time is up finish (and are measured) before the next strategy
// starts: the service must not serve two strategies' loads at once.
const DRAIN_SEC = drainSeconds(scenario);
const GAP_SEC = parseInt(__ENV.GAP_SEC || '2', 10);
const PHASE_SEC = executorSeconds(LOAD) + DRAIN_SEC + GAP_SEC;

function buildOptions() {
  const scenarios = {};
  const thresholds = {};
  STRATEGIES.forEach((strategy, index) => {
    scenarios[strategy] = executorFor(LOAD, {
      exec: 'order',
      startTime: index * PHASE_SEC + 's',
      gracefulStop: DRAIN_SEC + 's',
      env: { STRATEGY: strategy },
      tags: { strategy: strategy },
    });
    thresholds['checks{kind:order,strategy:' + strategy + '}'] = ['rate>0.99'];
    // Per strategy, so the summary names the one that oversold where it must not.
    thresholds['checks{kind:inventory,strategy:' + strategy + '}'] = ['rate==1'];
    if (P99_MS) thresholds['http_req_duration{endpoint:order,strategy:' + strategy + '}'] = ['p(99)<' + P99_MS];
  });
  return { scenarios: scenarios, thresholds: thresholds, summaryTrendStats: SUMMARY_TREND_STATS };
}

export const options = buildOptions();

/** The service's word on each strategy, and one product per strategy, all reset before the first load starts. */
export function setup() {
  const descriptions = describeStrategies(URLS[0], STRATEGIES);
  const products = {};
  STRATEGIES.forEach((strategy, index) => {
    products[strategy] = productIdFromEnv(index);
    resetProduct(URLS[0], products[strategy], strategy, scenario);
  });
  return { products: products, descriptions: descriptions };
}

export function order(data) {
  const strategy = __ENV.STRATEGY;
  if (!withinCount(LOAD)) return;
  placeOrder(URLS, data.products[strategy], strategy, LOAD.quantity, REQUEST);
}

export function teardown(data) {
  for (const strategy of STRATEGIES) checkInventory(URLS[0], data.products[strategy], data.descriptions[strategy]);
}

export function handleSummary(data) {
  return summaryOutputs(data, 'compare-strategies-' + SCENARIO_NAME);
}
