// Usage: K6_ENV='{"STRATEGY":"watchdog"}' K6_INVENTORY='{...}' K6_STRATEGIES='[...]' node run-script.mjs <script.js>
// (K6_INVENTORY answers every product's inventory, K6_STRATEGIES GET /api/strategies).
// Prints {options, requests, checks, outputs} as JSON for the k6 script test.
import { register } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

register('./hooks.mjs', import.meta.url);
const scriptUrl = pathToFileURL(process.argv[2]);
globalThis.k6Record = { requests: [], checks: [] };
globalThis.k6Inventory = JSON.parse(process.env.K6_INVENTORY);
globalThis.k6Strategies = JSON.parse(process.env.K6_STRATEGIES);
Object.assign(globalThis, {
  __ENV: JSON.parse(process.env.K6_ENV || '{}'),
  __VU: 1,
  __ITER: 0,
  // As in k6, relative to the entry script.
  open: (path) => readFileSync(new URL(path, scriptUrl), 'utf8'),
});

const script = await import(scriptUrl.href);
const data = script.setup();
const iteration = script.default ?? script[Object.values(script.options.scenarios)[0].exec];
iteration(data);
script.teardown(data);
const outputs = script.handleSummary({ metrics: {} });
console.log(JSON.stringify({ options: script.options, outputs: Object.keys(outputs), ...globalThis.k6Record }));
