import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkAll, REPO_ROOT, tableOf } from './check-all';
import { MODEL_PAIRS } from './pairs';

/**
 * npm run model-check [-- --write-traces]: checks every (model, fault) pair with spin and prints the table;
 * exits 1 when a verdict is not the expected one, or a counterexample's checked-in trace is stale (then
 * --write-traces writes them).
 */
async function main(): Promise<number> {
  const write = process.argv.includes('--write-traces');
  const started = performance.now();
  const results = await checkAll(MODEL_PAIRS);
  console.log(tableOf(results));
  console.log(`\n${results.length} pairs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const mismatched = results.filter((r) => r.verdict !== r.pair.expected);
  const stale = results.filter((r) => r.stale);
  if (write) {
    for (const { trace } of stale) await writeFile(resolve(REPO_ROOT, trace!.file), trace!.json);
    for (const { trace } of stale) console.log(`wrote ${trace!.file}`);
  } else if (stale.length) {
    console.error(`stale traces (npm run model-check -- --write-traces):\n${stale.map((r) => `  ${r.trace!.file}`).join('\n')}`);
  }
  if (mismatched.length) console.error(`${mismatched.length} pair(s) not as expected`);
  return mismatched.length || (stale.length && !write) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
