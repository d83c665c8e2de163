// One hot product under many buyers. Run from loadtests/:  k6 run -e STRATEGY=lua-decrement k6/flash-sale.js
// Env: SCENARIO (default flash-sale), STRATEGY (default: the scenario's), BASE_URL (comma-separated),
// PRODUCT_ID (default random), P99_MS (latency threshold, default 2000), SUMMARY_PATH, EXPECT_SAFE.
import {
  baseUrls,
  executorFor,
  checkInventory,
  parseScenario,
  placeOrder,
  productIdFromEnv,
  resetProduct,
  scenarioPath,
  summaryOutputs,
  SUMMARY_TREND_STATS,
} from './lib/common.js';

const SCENARIO_NAME = __ENV.SCENARIO || 'flash-sale';
const scenario = parseScenario(open(scenarioPath(SCENARIO_NAME)), SCENARIO_NAME);
const STRATEGY = __ENV.STRATEGY || scenario.strategy;
if (!STRATEGY) throw new Error('STRATEGY is required: scenario ' + SCENARIO_NAME + ' names no default strategy');
const URLS = baseUrls();
const P99_MS = __ENV.P99_MS || '2000';

export const options = {
  scenarios: { [SCENARIO_NAME]: executorFor(scenario.load, { tags: { strategy: STRATEGY } }) },
  summaryTrendStats: SUMMARY_TREND_STATS,
  thresholds: {
    'checks{kind:order}': ['rate>0.99'],
    // A safe strategy that oversold fails the run (see teardown).
    'checks{kind:inventory}': ['rate==1'],
    'http_req_duration{endpoint:order}': ['p(99)<' + P99_MS],
  },
};

export function setup() {
  const productId = productIdFromEnv(0);
  resetProduct(URLS[0], productId, STRATEGY, scenario);
  return { productId: productId };
}

export default function (data) {
  placeOrder(URLS, data.productId, STRATEGY, scenario.load.quantity);
}

export function teardown(data) {
  checkInventory(URLS[0], data.productId, STRATEGY, scenario);
}

export function handleSummary(data) {
  return summaryOutputs(data, SCENARIO_NAME);
}
