#!/usr/bin/env node
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomInt } from 'node:crypto';
import type { InventoryView, Scenario } from '@oversell/contracts';
import { parseCliArgs, type CliArgs } from './cli-args';
import { exitOnCliError, HelpRequested, UsageError } from '@oversell/cli';
import { doubleClickOf } from './double-click';
import { serveLoadOverIpc } from './ipc-child';
import { fetchInventory, resetProduct } from './product-api';
import { createProgressDisplay } from './progress-display';
import { formatReport } from './report';
import { runLoad } from './run-load';
import { loadScenario, UnknownScenarioError } from './scenarios';
import { InvalidFieldError } from './validation';

const EXIT_FAILED = 1;
/** Stopped by Ctrl-C: the report of what ran is printed, and the shell is told it was cut short. */
const EXIT_INTERRUPTED = 130;

/** Resets the product, drives the scenario's load, reads the inventory back and prints both views; the exit code. */
async function runScenario(args: CliArgs): Promise<number> {
  // Checked before anything: a --json path that cannot be written was found out only after the whole run.
  if (args.jsonPath) assertWritableFile(args.jsonPath);
  let scenario: Scenario;
  try {
    scenario = loadScenario(args.scenario);
  } catch (error) {
    if (error instanceof UnknownScenarioError || error instanceof InvalidFieldError) {
      throw new UsageError(`--scenario: ${error.message}`);
    }
    throw error;
  }
  const strategy = args.strategy ?? scenario.strategy;
  if (!strategy) throw new UsageError(`--strategy is required: scenario "${scenario.name}" names no default strategy`);
  // A fresh product per run by default, so runs never read each other's orders.
  const productId = args.productId ?? randomInt(100_000, 1_000_000);
  // Product calls go to the first URL: with several instances behind one proxy, that is the entry point.
  const [entryUrl] = args.urls;

  if (args.reset) {
    const { initialStock: stock, lockTtlMs, businessDelayMs, segments, faults } = scenario;
    // The faults ride on the reset, as a lab run's do: every instance reads them from the product's settings.
    await resetProduct(entryUrl, productId, { stock, strategy, lockTtlMs, businessDelayMs, segments, ...(faults?.length ? { faults } : {}) });
  } else if (args.target === 'orders') {
    // Before the load, not after it: a product never reset, or reset for another strategy, would answer
    // the whole load with 404s or 409 strategy_mismatch.
    const { strategy: resetFor } = await fetchInventory(entryUrl, productId).catch((error: Error) => Promise.reject(new Error(`--no-reset: product ${productId} cannot take orders: ${error.message}`)));
    if (resetFor !== strategy) throw new Error(`--no-reset: product ${productId} was reset for ${resetFor}, so every ${strategy} order would be refused (strategy_mismatch): give --strategy ${resetFor}`);
  }
  console.log(`${scenario.name}: ${args.target} on product ${productId} with ${strategy} via ${args.urls.join(', ')}`);
  const doubleClick = args.doubleClick ?? (args.target === 'orders' ? doubleClickOf(scenario.faults) : undefined);
  if (doubleClick) console.log(`double-click: each order sent ${doubleClick.copies} times at once, ${doubleClick.idempotencyKey ? 'with one idempotency key' : 'without an idempotency key'}`);
  if (scenario.faults?.length) console.log(`faults: ${scenario.faults.map((fault) => JSON.stringify(fault)).join(', ')}${args.reset ? '' : ' (not sent: --no-reset)'}`);

  const interrupted = new AbortController();
  process.once('SIGINT', () => interrupted.abort());
  const display = createProgressDisplay(scenario.load);
  const summary = await runLoad({
    urls: args.urls,
    target: args.target,
    productId,
    strategy,
    profile: scenario.load,
    doubleClick,
    onTick: (tick) => display.update(tick),
    signal: interrupted.signal,
  }).finally(() => display.stop());

  // The no-op endpoint deducts nothing, so there is no inventory worth reading after it.
  const inventory: InventoryView | null = args.target === 'orders' ? await fetchInventory(entryUrl, productId) : null;
  console.log(formatReport(summary, inventory));
  if (args.jsonPath) {
    const record = { scenario: scenario.name, target: args.target, strategy, productId, urls: args.urls, ...(doubleClick ? { doubleClick } : {}), client: summary, inventory };
    writeFileSync(args.jsonPath, `${JSON.stringify(record, null, 2)}\n`);
  }
  return interrupted.signal.aborted ? EXIT_INTERRUPTED : 0;
}

function assertWritableFile(path: string): void {
  const dir = dirname(path);
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new UsageError(`--json: cannot write ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

async function main(argv: string[]): Promise<number> {
  try {
    const parsed = parseCliArgs(argv);
    if (parsed.mode === 'ipc') await serveLoadOverIpc();
    else return await runScenario(parsed);
    return 0;
  } catch (error) {
    if (error instanceof HelpRequested || error instanceof UsageError) exitOnCliError(error);
    console.error(`load run failed: ${(error as Error).message}`);
    return EXIT_FAILED;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
