/**
 * `npm run soak` (not in CI): a long run of the lab under steady load, to see that it holds — memory,
 * event loop, figures. By default 10 minutes at 500 clients over a product of 100k units, the time split
 * evenly over the safe strategies (one run each, one after another, through the runs API). Prints each
 * instance's RSS and event-loop delay p99 at the end of every minute, each run's errors, lost and
 * oversold units; writes JSON + markdown under bench-results/. Exits 1 when a target is not met: RSS flat
 * (±10 %) after the first minute, 0 errors, 0 lost, 0 oversold. Before minute 0, every strategy is run
 * once for a few seconds and discarded (as the bench warms before it measures): each strategy's first run
 * loads its clients (etcd, ZooKeeper, the cluster, …), which otherwise reads as RSS growth for as long
 * as new strategies come up.
 *   --minutes 10  --connections 500  --stock 100000  --instances 3  --strategies a,b  --warmup-seconds 3  --out dir
 * Always on a lab of its own (no --url): the RSS is read off the instances it started.
 */
import { STRATEGY_CATALOGUE, type StrategyName } from '@oversell/contracts';
import { cliCommand, exitOnCliError, parseCommand, valueOption, wholeNumber } from '@oversell/cli';
import { setInterval as every } from 'node:timers/promises';
import { connectionsOption, instancesOption, outOption, steadyLoadValues, stockOption, strategiesOption } from './cli-options';
import type { Lab } from '../lab/lab';
import type { LabClient } from '../lab/lab-client';
import { openLabSession, type LabRunOptions } from '../lab/lab-session';
import { assertWritableDir, fileStamp, machineInfo, writeReportFiles } from '../reports/report-files';
import { followRuns } from './run-progress';
import { soakMarkdown, soakRun, soakVerdict, type SoakReport, type SoakSample } from '../reports/soak-report';

const MINUTE_MS = 60_000;
const MB = 1024 * 1024;

export interface SoakOptions extends Omit<LabRunOptions, 'url' | 'strategies'> {
  minutes: number;
  connections: number;
  /** Seconds of discarded load per strategy before minute 0; 0: none. */
  warmupSeconds: number;
  stock: number;
  /** None given: every strategy the catalogue calls safe. */
  strategies?: StrategyName[];
}

/** The soak's options; a fresh command per parse (commander keeps the values it parsed). */
export function soakCommand() {
  return cliCommand('soak', {
    en: 'A long run of a lab of its own under steady load, the safe strategies one after another; exits 1 when RSS, errors, lost or oversold units miss their targets.',
    zh: '在自己启动的实验室上以稳定负载长时间运行，安全策略逐个轮流；RSS、错误、丢失或超卖件数未达目标时以 1 退出。',
  })
    .addOption(valueOption('--minutes <n>', { en: 'minutes of load in all', zh: '负载的总分钟数' }, wholeNumber(1, 600)).default(10))
    .addOption(connectionsOption().default(500))
    .addOption(valueOption('--warmup-seconds <n>', { en: 'seconds of discarded load per strategy before minute 0', zh: '第 0 分钟前每个策略预热的秒数（不计入结果）' }, wholeNumber(0, 60)).default(3))
    .addOption(stockOption().default(100_000))
    .addOption(instancesOption(3))
    .addOption(strategiesOption({ en: 'every safe strategy', zh: '所有安全的策略' }))
    .addOption(outOption());
}

export function parseSoakArgs(args: string[]): SoakOptions {
  const values = parseCommand(soakCommand(), args);
  return {
    ...steadyLoadValues(values, 'soak', args),
    minutes: values.minutes as number,
    warmupSeconds: values.warmupSeconds as number,
    strategies: values.strategies as StrategyName[] | undefined,
  };
}

export async function runSoak(options: SoakOptions, print: (line: string) => void = console.log): Promise<{ report: SoakReport; files: string[] }> {
  assertWritableDir(options.outDir);
  const startedAt = new Date();
  const toStderr = (line: string) => process.stderr.write(`${line}\n`);
  // No store-cut proxy: the soak runs no faults.
  const { client, lab, stop } = await openLabSession(options, { keyPrefix: 'ol-soak', basePort: 3301, storeProxy: false, log: toStderr });
  const samples: SoakSample[] = [];
  const sampling = new AbortController();
  try {
    const strategies = options.strategies ?? STRATEGY_CATALOGUE.filter((entry) => entry.safe).map((entry) => entry.name);
    const secondsPerStrategy = Math.max(1, Math.floor((options.minutes * 60) / strategies.length));
    if (options.warmupSeconds > 0) await warmUp(client, strategies, options);
    samples.push(...(await sampleInstances(lab!, 0)));
    const sampled = sampleEveryMinute(lab!, samples, sampling.signal, print);
    const batch = await client.queueBatch({
      initialStock: options.stock,
      load: { connections: options.connections, durationSec: secondsPerStrategy },
      strategies,
      includeCeiling: false,
      scenario: 'soak',
    });
    const finished = await followRuns('soak', client, batch.runs, process.stderr, toStderr);
    sampling.abort();
    await sampled;
    const runs = finished.map(soakRun);
    const report: SoakReport = {
      command: options.command,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: machineInfo(),
      settings: { minutes: options.minutes, connections: options.connections, stock: options.stock, instances: options.instances, secondsPerStrategy, strategies, warmupSeconds: options.warmupSeconds },
      samples,
      runs,
      verdict: soakVerdict(samples, runs),
    };
    const markdown = soakMarkdown(report);
    print(`\n${markdown}\n`);
    const files = writeReportFiles(options.outDir, `soak-${fileStamp(report.startedAt)}`, report, markdown, report.command);
    print(`written: ${files.join(', ')}`);
    return { report, files };
  } finally {
    sampling.abort();
    await stop();
  }
}

/** Every strategy once, briefly, not measured; a warm-up run that does not complete stops the soak. */
async function warmUp(client: LabClient, strategies: StrategyName[], options: SoakOptions): Promise<void> {
  const batch = await client.queueBatch({ initialStock: WARMUP_STOCK, load: { connections: options.connections, durationSec: options.warmupSeconds }, strategies, includeCeiling: false, scenario: 'soak-warmup' });
  const toStderr = (line: string) => process.stderr.write(`${line}\n`);
  const failed = (await followRuns('soak warm-up', client, batch.runs, process.stderr, toStderr)).filter((run) => run.status !== 'completed');
  if (failed.length) throw new Error(`soak warm-up: ${failed.map((run) => `${run.params.strategy} ${run.status}${run.failure ? ` (${run.failure})` : ''}`).join(', ')}`);
}

/** Small: the warm-up only has to take each strategy's whole path, not sell for long. */
const WARMUP_STOCK = 1000;

/** One sample per instance at the end of every minute, printed as it comes, until `signal` aborts. */
async function sampleEveryMinute(lab: Lab, samples: SoakSample[], signal: AbortSignal, print: (line: string) => void): Promise<void> {
  let minute = 0;
  try {
    for await (const _ of every(MINUTE_MS, undefined, { signal })) {
      const taken = await sampleInstances(lab, ++minute);
      samples.push(...taken);
      print(`minute ${minute}: ${taken.map((s) => `${s.instance} ${s.rssMb.toFixed(1)} MB (heap ${s.heapUsedMb}/${s.heapTotalMb}, ext ${s.externalMb}), loop p99 ${s.eventLoopP99Ms.toFixed(1)} ms`).join(' · ')}`);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

/** Each instance that is up, as its /metrics says (prom-client's default process and event-loop metrics). */
async function sampleInstances(lab: Lab, minute: number): Promise<SoakSample[]> {
  const taken = await Promise.all(
    lab.instances.map(async (instance): Promise<SoakSample | null> => {
      if (!instance.up) return null;
      const metrics = await fetch(`${instance.url}/metrics`).then((r) => r.text(), () => null);
      if (metrics === null) return null;
      const rss = metricValue(metrics, 'oversell_process_resident_memory_bytes');
      if (rss === null) return null;
      const mb = (name: string) => Math.round(((metricValue(metrics, name) ?? 0) / MB) * 10) / 10;
      return {
        minute,
        instance: instance.spec.id,
        pid: instance.pid ?? null,
        rssMb: Math.round((rss / MB) * 10) / 10,
        heapTotalMb: mb('oversell_nodejs_heap_size_total_bytes'),
        heapUsedMb: mb('oversell_nodejs_heap_size_used_bytes'),
        externalMb: mb('oversell_nodejs_external_memory_bytes'),
        eventLoopP99Ms: Math.round((metricValue(metrics, 'oversell_nodejs_eventloop_lag_p99_seconds') ?? 0) * 10_000) / 10 };
    }),
  );
  return taken.filter((s): s is SoakSample => s !== null);
}

/** A metric without labels from Prometheus' text format. */
export function metricValue(text: string, name: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : null;
}

if (require.main === module) {
  (async () => {
    const { report } = await runSoak(parseSoakArgs(process.argv.slice(2)));
    process.exit(report.verdict.met ? 0 : 1);
  })().catch(exitOnCliError);
}
