// Node module hooks that stand in for k6's built-in modules, so a test can run a script's init code,
// setup(), one iteration, teardown() and handleSummary() without k6. Records what the script did.
const STUBS = {
  k6: `export function check(value, sets, tags) {
    for (const name of Object.keys(sets)) globalThis.k6Record.checks.push({ name, ok: sets[name](value), tags });
    return true;
  }`,
  'k6/http': `const respond = (status, body) => ({ status, body: JSON.stringify(body), json: (key) => (key ? body[key] : body) });
  export default {
    expectedStatuses: (...statuses) => ({ statuses }),
    post(url, body, params) {
      globalThis.k6Record.requests.push({ method: 'POST', url, body: JSON.parse(body), headers: params.headers, tags: params.tags });
      if (url.endsWith('/api/orders')) return respond(409, { error: 'sold_out' });
      return url.endsWith('/api/noop') ? respond(200, { ok: true }) : respond(201, {});
    },
    // Each request of one batch is recorded with the batch's number: the copies k6 sends at once.
    batch(requests) {
      globalThis.k6Batches = (globalThis.k6Batches ?? 0) + 1;
      return requests.map(([method, url, body, params]) => {
        const res = this.post(url, body, params);
        globalThis.k6Record.requests.at(-1).batch = globalThis.k6Batches;
        return res;
      });
    },
    get(url, params) {
      globalThis.k6Record.requests.push({ method: 'GET', url, tags: params.tags });
      return respond(200, url.endsWith('/api/strategies') ? globalThis.k6Strategies : globalThis.k6Inventory);
    },
  };`,
  'k6/metrics': 'export class Counter { constructor(name) { this.name = name; } add() {} }',
  // The one iteration the test runs is iteration K6_ITERATION of its scenario (0 by default).
  'k6/execution': 'export default { scenario: { get iterationInTest() { return Number(process.env.K6_ITERATION ?? 0); } } };',
};

export async function resolve(specifier, context, next) {
  return specifier in STUBS ? { url: `k6-stub:${specifier}`, shortCircuit: true } : next(specifier, context);
}

export async function load(url, context, next) {
  return url.startsWith('k6-stub:')
    ? { format: 'module', source: STUBS[url.slice('k6-stub:'.length)], shortCircuit: true }
    : next(url, context);
}
