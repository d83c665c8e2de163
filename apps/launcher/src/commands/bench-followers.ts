/**
 * `npm run bench:followers`: whether a room following the presenter slows the run. On a lab of its own,
 * the same run (one strategy, fixed stock, connections and duration) alternately with no follower and
 * with N, for a few pairs; each follower is what a phone in follow mode holds open through the gateway:
 * GET /api/course/events, and the run's own events once the presenter's PUT /api/course names it.
 * Prints units sold per second, latency p99 and the instances' CPU of every run, and the ratios of the
 * medians (with ÷ without); writes JSON + markdown under bench-results/.
 *   --pairs 3  --followers 30  --strategy lua-decrement  --stock 1000000  --connections 50  --duration 10  --instances 3  --out dir
 */
import { choiceOption, cliCommand, exitOnCliError, parseCommand, valueOption, wholeNumber } from '@oversell/cli';
import { serverSentEvents, STRATEGY_NAMES, type CourseState, type RunView, type StrategyName } from '@oversell/contracts';
import { connectionsOption, instancesOption, outOption, steadyLoadValues, stockOption } from './cli-options';
import { openLabSession, type LabRunOptions } from '../lab/lab-session';
import { followersMarkdown, type FollowedRun, type FollowersBenchReport } from '../reports/followers-report';
import { assertWritableDir, fileStamp, machineInfo, writeReportFiles } from '../reports/report-files';
import { followRuns } from './run-progress';

export interface FollowersBenchOptions extends Omit<LabRunOptions, 'url' | 'strategies'> {
  pairs: number;
  followers: number;
  strategy: StrategyName;
  stock: number;
  connections: number;
  durationSec: number;
}

export function followersBenchCommand() {
  return cliCommand('bench:followers', {
    en: 'The same run alternately with no follower and with N followers (course events + run events through the gateway, as phones in follow mode): units/s, p99 and instance CPU of each, and their ratios.',
    zh: '同一个运行交替在没有跟随者和有 N 个跟随者（经网关同时打开课程事件流和运行事件流，如同手机跟随模式）时执行：打印每次的件/秒、p99 和实例 CPU，以及两者之比。',
  })
    .addOption(valueOption('--pairs <n>', { en: 'alternated pairs (without, with)', zh: '交替的组数（无跟随者、有跟随者）' }, wholeNumber(1, 20)).default(3))
    .addOption(valueOption('--followers <n>', { en: 'followers in the runs that have them', zh: '有跟随者的运行中的跟随者数' }, wholeNumber(1, 500)).default(30))
    .addOption(choiceOption('--strategy <name>', { en: 'the strategy every run uses', zh: '每次运行使用的策略' }, STRATEGY_NAMES).default('lua-decrement'))
    .addOption(stockOption({ description: { en: 'units of the product (enough not to sell out within the duration)', zh: '商品库存件数（足够在时长内不售罄）' } }).default(1_000_000))
    .addOption(connectionsOption(undefined, { en: 'concurrent connections of the load', zh: '负载的并发连接数' }).default(50))
    .addOption(valueOption('--duration <s>', { en: 'seconds of load per run', zh: '每次运行的负载秒数' }, wholeNumber(1, 600)).default(10))
    .addOption(instancesOption(3))
    .addOption(outOption());
}

export function parseFollowersBenchArgs(args: string[]): FollowersBenchOptions {
  const values = parseCommand(followersBenchCommand(), args);
  return {
    ...steadyLoadValues(values, 'bench:followers', args),
    pairs: values.pairs as number,
    followers: values.followers as number,
    strategy: values.strategy as StrategyName,
    durationSec: values.duration as number,
  };
}

/** A phone in follow mode: the course's events, and the events of each run the course names. */
class Follower {
  private readonly abort = new AbortController();
  private readonly followed = new Set<string>();
  /** Runs whose result this follower received. */
  readonly results = new Set<string>();
  private readonly streams: Promise<void>[] = [];

  constructor(private readonly baseUrl: string) {}

  /** Resolves once the course's first event (the current state) has arrived. */
  async start(): Promise<void> {
    let first!: () => void;
    const started = new Promise<void>((resolve) => (first = resolve));
    this.streams.push(
      this.read('/api/course/events', (event, data) => {
        if (event !== 'course') return;
        first();
        for (const runId of (JSON.parse(data) as CourseState).runIds) this.followRun(runId);
      }),
    );
    await started;
  }

  private followRun(runId: string): void {
    if (this.followed.has(runId)) return;
    this.followed.add(runId);
    this.streams.push(this.read(`/api/runs/${runId}/events`, (event) => void (event === 'result' && this.results.add(runId))));
  }

  private async read(path: string, onEvent: (event: string, data: string) => void): Promise<void> {
    try {
      const response = await fetch(`${this.baseUrl}${path}`, { signal: this.abort.signal });
      if (!response.ok || !response.body) throw new Error(`GET ${path} → ${response.status}`);
      for await (const { event, data } of serverSentEvents(response.body)) onEvent(event, data);
    } catch (error) {
      if (!this.abort.signal.aborted) throw error;
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled(this.streams);
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

function measured(run: RunView, pair: number, followers: number, followersSawResult: number): FollowedRun {
  const result = run.result!;
  const cpu = result.cpu;
  const instanceMs = cpu?.processes.filter((p) => p.role === 'instance').reduce((sum, p) => sum + p.cpuMs, 0);
  return {
    pair,
    followers,
    runId: run.id,
    unitsPerSec: round(result.counts.sold / result.durationSec, 1),
    p99Ms: result.latency.p99,
    instanceCores: cpu && instanceMs !== undefined ? round(instanceMs / cpu.windowMs) : null,
    followersSawResult,
  };
}

export async function runFollowersBench(options: FollowersBenchOptions, print: (line: string) => void = console.log): Promise<{ report: FollowersBenchReport; files: string[] }> {
  assertWritableDir(options.outDir);
  const startedAt = new Date().toISOString();
  const toStderr = (line: string) => process.stderr.write(`${line}\n`);
  const { client, lab, stop } = await openLabSession({ ...options, strategies: [options.strategy] }, { keyPrefix: 'ol-followers', basePort: 3351, storeProxy: false, log: toStderr });
  try {
    const load = { connections: options.connections, durationSec: options.durationSec };
    const runOnce = async (pair: number, followers: number): Promise<FollowedRun> => {
      const room = Array.from({ length: followers }, () => new Follower(lab!.gatewayUrl));
      await Promise.all(room.map((f) => f.start()));
      try {
        const queued = await client.queueRun({ strategy: options.strategy, initialStock: options.stock, load });
        // The presenter names the run in the course: the followers open its events as a phone would.
        await presenterShows(lab!.gatewayUrl, queued.id);
        const [run] = await followRuns(`followers ${followers}`, client, [queued], process.stderr, toStderr);
        if (run.status !== 'completed') throw new Error(`run ${run.id} ${run.status}${run.failure ? `: ${run.failure}` : ''}`);
        // A follower's result event can trail the status the bench polled: wait for the streams to say it.
        await Promise.race([Promise.all(room.map((f) => until(() => f.results.has(run.id)))), new Promise((resolve) => setTimeout(resolve, 5000))]);
        const row = measured(run, pair, followers, room.filter((f) => f.results.has(run.id)).length);
        print(`pair ${pair}, ${followers} followers: ${row.unitsPerSec} units/s, p99 ${row.p99Ms} ms, instances' CPU ${row.instanceCores ?? '–'} cores`);
        return row;
      } finally {
        await Promise.all(room.map((f) => f.stop()));
      }
    };
    // A discarded warm-up run first: the first run of a lab loads what later ones find ready.
    await runOnce(0, 0);
    const runs: FollowedRun[] = [];
    for (let pair = 1; pair <= options.pairs; pair++) {
      // Alternated, each pair in the other order than the last, so a drift of the machine falls on both sides.
      const order = pair % 2 ? [0, options.followers] : [options.followers, 0];
      for (const followers of order) runs.push(await runOnce(pair, followers));
    }
    const side = (followers: number) => runs.filter((r) => r.followers === followers);
    const ratio = (pick: (r: FollowedRun) => number | null): number | null => {
      const [without, withFollowers] = [side(0), side(options.followers)].map((rows) => rows.map(pick).filter((v): v is number => v !== null));
      return without.length && withFollowers.length ? round(median(withFollowers) / median(without), 3) : null;
    };
    const report: FollowersBenchReport = {
      command: options.command,
      startedAt,
      machine: machineInfo(),
      settings: { pairs: options.pairs, followers: options.followers, strategy: options.strategy, stock: options.stock, connections: options.connections, durationSec: options.durationSec, instances: options.instances },
      runs,
      ratios: { unitsPerSec: ratio((r) => r.unitsPerSec)!, p99Ms: ratio((r) => r.p99Ms)!, instanceCores: ratio((r) => r.instanceCores) },
    };
    const markdown = followersMarkdown(report);
    print(`\n${markdown}\n`);
    const files = writeReportFiles(options.outDir, `followers-${fileStamp(startedAt)}`, report, markdown, report.command);
    print(`written: ${files.join(', ')}`);
    return { report, files };
  } finally {
    await stop();
  }
}

/** PUT /api/course naming the run, with the lab's token when one is set (the presenter's). */
async function presenterShows(baseUrl: string, runId: string): Promise<void> {
  const token = process.env.ADMIN_TOKEN;
  const response = await fetch(`${baseUrl}/api/course`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ lessonId: 'bench-followers', runIds: [runId] }),
  });
  if (!response.ok) throw new Error(`PUT /api/course → ${response.status}: ${await response.text()}`);
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

if (require.main === module) {
  (async () => {
    await runFollowersBench(parseFollowersBenchArgs(process.argv.slice(2)));
  })().catch(exitOnCliError);
}
