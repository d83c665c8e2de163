import { LOCK_SERVICES } from '@oversell/contracts';
import { CREATE_LOCK_TABLE, startLockServer } from '@oversell/locks';
import Redis from 'ioredis';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { runAcrossProcesses, type RunSpec } from './across-processes';
import { openBenchDatabase, redisOptions } from './lock-clients';
import { markdownTable, type LockBenchPass, type LockBenchReport } from './lock-bench-report';
import { lockServicesNeeded, type LockName } from './locks-under-test';
import { medianRow, passOrder } from './passes';
import { redisPid } from './process-cpu';
import type { SectionKeys } from './section-loop';
import { summarizeWaits } from './wait-histogram';

/** Far longer than a section (two Redis commands): every lock here is exclusive within it. */
export const LEASE_MS = 2000;
/** Half of a default run: a waiter starved that long shows as a timeout. */
export const WAIT_MS = 5000;
/** The uncontended bound needs no more than a few seconds to settle. */
const MAX_BOUND_SECONDS = 3;

export interface LockBenchOptions {
  locks: LockName[];
  processes: number;
  workers: number;
  seconds: number;
  /** Times every lock is measured, each pass in another order (passOrder); the row is the median pass. */
  passes: number;
  /** ioredis's enableAutoPipelining on every process's Redis connection (connectClients). */
  autoPipelining: boolean;
  outDir: string;
  command: string;
}

/**
 * Every chosen lock, one after another, `passes` times in alternated order, under the same workload:
 * first its uncontended bound, then `processes` × `workers` contending for one key. Prints a markdown
 * table of each lock's median pass and writes JSON + markdown under outDir. Works under a fresh key prefix on the shared Redis (and lock names with that prefix in
 * the bench's own MySQL database) and deletes its keys and rows after.
 */
export async function runLockBench(options: LockBenchOptions, print: (line: string) => void = console.log): Promise<{ report: LockBenchReport; files: string[] }> {
  const startedAt = new Date();
  const keyPrefix = `lockbench-${startedAt.getTime().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const boundSeconds = Math.min(MAX_BOUND_SECONDS, options.seconds);
  // The bench's processes find each through its variable (LOCK_SERVICES); they stop when this process exits.
  for (const service of lockServicesNeeded(options.locks)) print(`lock-bench: ${LOCK_SERVICES[service].title} at ${startLockServer(service, LOCK_SERVICES[service].env)}`);
  const redis = new Redis(redisOptions());
  const mysql = await openBenchDatabase();
  try {
    await mysql.query(CREATE_LOCK_TABLE.sql);
    const pid = await redisPid(redis);
    const passes = new Map<LockName, LockBenchPass[]>(options.locks.map((lock) => [lock, []]));
    for (let pass = 0; pass < options.passes; pass++) {
      for (const lock of passOrder(options.locks, pass)) {
        const measured = await measureLock(lock, `${keyPrefix}:${lock}:${pass}`, options, boundSeconds, pid, redis);
        passes.get(lock)!.push(measured);
        print(`lock-bench: pass ${pass + 1}/${options.passes}, ${lock}: ${measured.sectionsPerSec} sections/s (bound ${measured.bound.sectionsPerSec}), wait p99 ${measured.waitMs.p99} ms, CPU µs/section ${measured.cpuUsPerSection.processes ?? '–'} + Redis ${measured.cpuUsPerSection.redis ?? '–'}, load ${measured.loadAverage}, ${measured.timeouts} timeouts, ${measured.lostIncrements} lost increments, ${measured.errors} errors${measured.errorSamples.length ? ` (${measured.errorSamples.join('; ')})` : ''}`);
      }
    }
    const rows = options.locks.map((lock) => medianRow(passes.get(lock)!));
    const report: LockBenchReport = {
      command: options.command,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: { cpus: cpus().length, memoryGb: Math.round(totalmem() / 1024 ** 3), node: process.version, loadAverage: loadavg().map((load) => Math.round(load * 100) / 100) },
      settings: { processes: options.processes, workers: options.workers, seconds: options.seconds, passes: options.passes, boundSeconds, leaseMs: LEASE_MS, waitMs: WAIT_MS, autoPipelining: options.autoPipelining, keyPrefix },
      rows,
    };
    const markdown = markdownTable(report);
    print(`\n${markdown}\n`);
    return { report, files: writeReport(report, markdown, options.outDir) };
  } finally {
    await deleteKeys(redis, keyPrefix);
    await mysql.query('DELETE FROM locks WHERE name LIKE ?', [`${keyPrefix}:%`]);
    await Promise.all([redis.quit(), mysql.end()]);
  }
}

/** One pass of one lock: its uncontended bound, then `processes` × `workers` contending for one key, under keys of its own. */
async function measureLock(lock: LockName, prefix: string, options: LockBenchOptions, boundSeconds: number, redisPid: number | undefined, redis: Redis): Promise<LockBenchPass> {
  const keys = (run: string): SectionKeys => ({ lock: `${prefix}:${run}:lock`, counter: `${prefix}:${run}:counter` });
  const spec = (run: string, workers: number, seconds: number): RunSpec => ({ lock, keys: keys(run), warmupKeys: keys('warmup'), settings: { workers, seconds, leaseMs: LEASE_MS, waitMs: WAIT_MS }, autoPipelining: options.autoPipelining });
  const loadAverage = round(loadavg()[0], 2);
  const bound = await runAcrossProcesses(1, spec('bound', 1, boundSeconds));
  const contended = await runAcrossProcesses(options.processes, spec('contended', options.workers, options.seconds), redisPid);
  const counter = Number((await redis.get(keys('contended').counter)) ?? 0);
  const boundRate = bound.sections / (bound.elapsedMs / 1000);
  const rate = contended.sections / (contended.elapsedMs / 1000);
  const perSection = (ms: number | null) => (ms === null || contended.sections === 0 ? null : round((ms * 1000) / contended.sections, 1));
  return {
    lock,
    sections: contended.sections,
    counter,
    lostIncrements: contended.sections - counter,
    timeouts: contended.timeouts,
    errors: contended.errors,
    errorSamples: contended.errorSamples,
    elapsedMs: round(contended.elapsedMs, 1),
    sectionsPerSec: round(rate, 1),
    perSectionMs: {
      held: round(contended.heldMs / contended.sections, 3),
      between: contended.heldMs > contended.elapsedMs ? null : round((contended.elapsedMs - contended.heldMs) / contended.sections, 3),
    },
    waitMs: summarizeWaits(contended.waits),
    bound: { sectionsPerSec: round(boundRate, 1), roundTripMs: round(bound.elapsedMs / bound.sections, 3) },
    efficiency: round(rate / boundRate, 3),
    cpuUsPerSection: { processes: perSection(contended.cpuMs.processes), redis: perSection(contended.cpuMs.redis) },
    loadAverage,
  };
}

/** Named like the service bench's files, with a `locks-` prefix so neither overwrites the other's latest. */
function writeReport(report: LockBenchReport, markdown: string, outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const json = JSON.stringify(report, null, 2);
  const md = `${markdown}\n\nCommand: \`${report.command}\`\n`;
  const files = [`locks-${stamp}.json`, `locks-${stamp}.md`, 'locks-latest.json', 'locks-latest.md'].map((name) => join(outDir, name));
  files.forEach((file, i) => writeFileSync(file, i % 2 === 0 ? json : md));
  return files;
}

/** Every key of the run, including those a library prefixes on its own (redis-semaphore's `mutex:`). */
async function deleteKeys(redis: Redis, keyPrefix: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: `*${keyPrefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
    if (keys.length) await redis.del(...keys);
  }
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
