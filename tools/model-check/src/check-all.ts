import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { faultLabel, traceFileOf, type ModelPair } from './pairs';
import { checkPair, type CheckResult } from './spin';
import { traceJson } from './trace';

/** The repository's root, from src/ (tests) or dist/ (the command). */
export const REPO_ROOT = resolve(__dirname, '../../..');

export interface PairResult extends CheckResult {
  pair: ModelPair;
  /** The counterexample's trace file (from the root) and its text as generated now; null without one. */
  trace: { file: string; json: string } | null;
  /** The checked-in trace file differs from the one generated now (or is missing). */
  stale: boolean;
}

/** Checks every pair, `parallel` at a time (each compiles its verifier with gcc), in the table's order. */
export async function checkAll(pairs: readonly ModelPair[], { root = REPO_ROOT, parallel = 2 } = {}): Promise<PairResult[]> {
  const results: PairResult[] = new Array(pairs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < pairs.length; i = next++) results[i] = await checkOne(pairs[i], root);
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

async function checkOne(pair: ModelPair, root: string): Promise<PairResult> {
  const result = await checkPair(pair, root);
  const trace = result.steps && { file: traceFileOf(pair), json: traceJson(result.steps) };
  const stored = trace && (await readFile(resolve(root, trace.file), 'utf8').catch(() => null));
  return { ...result, pair, trace, stale: trace !== null && stored !== trace.json };
}

/** The table the command prints: one row a pair, and whether its verdict is the one expected. */
export function tableOf(results: readonly PairResult[]): string {
  const header = ['model', 'fault', 'orders', 'stock', 'expected', 'got', 'states stored', 'depth', 'time', ''];
  const rows = results.map((r) => [
    r.pair.model,
    faultLabel(r.pair.fault),
    String(r.pair.orders),
    String(r.pair.stock),
    r.pair.expected,
    r.verdict,
    String(r.statesStored),
    String(r.depth),
    `${(r.elapsedMs / 1000).toFixed(2)} s`,
    r.verdict !== r.pair.expected ? 'MISMATCH' : r.stale ? 'trace stale' : '',
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  return [header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
}
