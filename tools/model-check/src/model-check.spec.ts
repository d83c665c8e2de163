import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkAll, REPO_ROOT, type PairResult } from './check-all';
import { faultLabel, MODEL_PAIRS, traceFileOf } from './pairs';

/**
 * Every pair of the table, checked with spin as `npm run model-check` does: its verdict, and the trace
 * checked in beside its model, which must be the counterexample spin finds now. Without spin every test
 * here fails, saying so (CI installs it in .ci/run).
 */
describe('the lock models, checked with spin', () => {
  let results: PairResult[];
  beforeAll(async () => {
    results = await checkAll(MODEL_PAIRS);
  });

  it.each(MODEL_PAIRS.map((pair, i) => [pair.model, faultLabel(pair.fault), pair.expected, i] as const))('%s under %s: %s', (_model, _fault, expected, i) => {
    const result = results[i];
    expect(result.verdict).toBe(expected);
    if (expected === 'none') return expect(result.trace).toBeNull();
    // The diagram's last word is the finding: the second sale, or the orders left waiting.
    const last = result.steps!.at(-1)!;
    expect(last.note).toBe(expected === 'sold-twice' ? 'sold-twice' : 'deadlock');
    const stored = readFileSync(resolve(REPO_ROOT, result.trace!.file), 'utf8');
    if (stored !== result.trace!.json) throw new Error(`${result.trace!.file} is stale: npm run model-check -- --write-traces`);
  });

  it('keeps a trace file only for the counterexamples of the table', () => {
    const traces = ['libs/locks/src', 'libs/stock/src/strategies'].flatMap((dir) =>
      (readdirSync(resolve(REPO_ROOT, dir), { recursive: true }) as string[]).filter((file) => file.endsWith('.trace.json')).map((file) => join(dir, file)),
    );
    const expected = MODEL_PAIRS.filter((pair) => pair.expected !== 'none').map(traceFileOf);
    expect(traces.sort()).toEqual(expected.sort());
  });
});
