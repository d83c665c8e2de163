/**
 * `npm run bench`: every strategy under one scenario, one after another (reset, load, reconcile), with
 * the no-op ceiling measured first (after a discarded warm-up) through the same gateway, instances and load tool. Prints a markdown
 * table and writes JSON + markdown under bench-results/. Beside them, in the same bench: a bare Fastify
 * no-op under the same load (the stack's own cost), and each lock strategy's uncontended run (its
 * round-trip bound).
 *   --scenario compare  --strategies a,b  --instances 3  --duration 8  --connections 100  --stock 500
 *   --url http://127.0.0.1:8080   (use a lab that is already running instead of starting one)
 *   --units 100000   (another name for --stock: a long sale)
 *   --instances 1,2,3,4   (a list: the bench once per count, see bench-scaling.ts)
 *   --order-write sync,queued,stream   (each strategy once per way of writing its orders, side by side; default sync)
 *   --trace off,on,all   (the bench once per trace window, a lab of its own each, see bench-trace.ts)
 * The report's charts (SVG, bench-charts.ts) are written next to its JSON.
 */
import { ORDER_WRITES, RUN_LIMITS, STRATEGY_CATALOGUE, STRATEGY_NAMES, type BenchReport, type OrderWrite, type RunView, type StrategyName } from '@oversell/contracts';
import { choiceOption, cliCommand, commaList, exitOnCliError, givenOnCommandLine, parseCommand, plainOption, UsageError, valueOption, wholeNumber } from '@oversell/cli';
import { CPU_PINNING_VARIABLES, listScenarios, loadScenario } from '@oversell/loadtests';
import { measureBareFastify } from './bare-fastify';
import { measureNoop } from './measure-noop';
import { writeBenchCharts } from '../reports/bench-charts';
import { benchRow, benchTrouble, markdownTable, withCeiling, withCeilingShare, withGatewayShares } from '../reports/bench-report';
import { isScalingRun, parseScalingArgs, runScaling, SCALING_COUNTS } from './bench-scaling';
import { runTraceSides, TRACE_SETTING_NAMES, TRACE_SETTINGS, type TraceSetting } from './bench-trace';
import { connectionsOption, instancesOption, LAB_INSTANCES, npmCommand, outOption, stockOption, strategiesOption, urlOption } from './cli-options';
import { openLabSession } from '../lab/lab-session';
import type { BenchOptions } from './bench-options';
import { assertWritableDir, fileStamp, machineInfo, writeReportFiles } from '../reports/report-files';
import { lockStrategies, roundTripBound, uncontendedRun, withRoundTrip } from './round-trip-bound';
import { followRuns } from './run-progress';

/** --taskset's cores: the load tool's and the lab's (Redis and MariaDB are the machine's services and are not pinned). */
export const TASKSET_CPUS = { load: '0', lab: '1' } as const;

const SCENARIOS = { en: "the scenario's", zh: '场景所定的' };

/** The bench's options; a fresh command per parse (commander keeps the values it parsed). */
export function benchCommand() {
  return cliCommand('bench', {
    en: 'Every strategy under one scenario through the lab, after the no-op ceiling; prints a table and writes the report under bench-results/.',
    zh: '在同一场景下经实验室逐一运行每个策略（先测空操作上限）；打印表格，并把报告写到 bench-results/。',
  })
    .addOption(choiceOption('--scenario <name>', { en: 'scenario in loadtests/scenarios', zh: 'loadtests/scenarios 中的场景' }, listScenarios()).default('compare'))
    .addOption(strategiesOption({ en: 'all of them; lua-decrement, watchdog, db-conditional for a scaling run', zh: '全部；扩展测试时为 lua-decrement、watchdog、db-conditional' }))
    // A list is taken apart before this parser sees the rest (isScalingRun); the help says both.
    .addOption(
      instancesOption(3, {
        ...LAB_INSTANCES,
        takes: {
          en: `${LAB_INSTANCES.takes.en}, or a ${SCALING_COUNTS.takes.en} to bench at each count, a lab of its own each (a scaling run)`,
          zh: `${LAB_INSTANCES.takes.zh}；或${SCALING_COUNTS.takes.zh}，在每个数量下各起一个实验室测一遍（扩展测试）`,
        },
      }),
    )
    .addOption(valueOption('--duration <s>', { en: 'seconds of load per strategy', zh: '每个策略的负载秒数' }, wholeNumber(1, RUN_LIMITS.maxDurationSec), SCENARIOS))
    .addOption(connectionsOption(SCENARIOS))
    .addOption(stockOption({ defaultText: SCENARIOS, least: 0 }))
    .addOption(valueOption('--units <n>', { en: 'another name for --stock, for a long sale', zh: '--stock 的别名，用于长时间的售卖' }, wholeNumber(0, RUN_LIMITS.maxStock), SCENARIOS))
    .addOption(valueOption('--order-write <list>', { en: 'each strategy once per way of writing its orders, side by side', zh: '每种订单写入方式各跑一遍每个策略，并列比较' }, commaList(ORDER_WRITES)).default(['sync'], 'sync'))
    .addOption(
      valueOption(
        '--trace <list>',
        {
          en: `the bench once per trace window, a lab of its own each, the instances' CPU per request side by side: on the default window (TRACED_ORDERS=${TRACE_SETTINGS.on}), all every order (${TRACE_SETTINGS.all}), off none (0); a window may be named again, to see the drift`,
          zh: `每个追踪窗口各跑一遍基准测试（各起一个实验室），并列比较实例每个请求的 CPU：on 为默认窗口（TRACED_ORDERS=${TRACE_SETTINGS.on}），all 追踪每个订单（${TRACE_SETTINGS.all}），off 不追踪（0）；同一窗口可重复给出，以看出机器的漂移`,
        },
        commaList(TRACE_SETTING_NAMES),
        { en: 'one bench, the instances as configured', zh: '只跑一遍，实例按其配置' },
      ),
    )
    .addOption(
      plainOption('--taskset', {
        en: `pin the load tool to core ${TASKSET_CPUS.load} and the lab it starts (instances, nginx, the bare no-op) to core ${TASKSET_CPUS.lab} with taskset, so neither takes the other's CPU; Redis and MariaDB stay unpinned`,
        zh: `用 taskset 把负载工具固定在 ${TASKSET_CPUS.load} 号核、把所启动的实验室（实例、nginx、裸空操作）固定在 ${TASKSET_CPUS.lab} 号核，互不抢占 CPU；Redis 与 MariaDB 不固定`,
      }),
    )
    .addOption(urlOption())
    .addOption(outOption());
}

export function parseBenchArgs(args: string[]): BenchOptions & { traces?: TraceSetting[] } {
  const command = benchCommand();
  const values = parseCommand(command, args);
  if (values.units !== undefined && values.stock !== undefined) throw new UsageError('--units is another name for --stock: give one of them');
  // A lab at --url has the instances it has: a count here would be a figure the bench did not set up.
  if (values.url !== undefined && givenOnCommandLine(command, 'instances')) throw new UsageError('--instances starts a lab of that many instances; with --url the lab is already running: give one of them');
  // The cores are given to the processes the bench starts; a running lab's were started without them.
  if (values.url !== undefined && values.taskset) throw new UsageError('--taskset pins the lab the bench starts; with --url the lab is already running: give one of them');
  // A window is set when an instance starts: a running lab's instances have theirs.
  if (values.url !== undefined && values.trace !== undefined) throw new UsageError('--trace starts a lab for each window; with --url the lab is already running: give one of them');
  return {
    scenario: values.scenario as string,
    strategies: (values.strategies ?? [...STRATEGY_NAMES]) as StrategyName[],
    instances: values.instances as number,
    durationSec: values.duration as number | undefined,
    connections: values.connections as number | undefined,
    stock: (values.units ?? values.stock) as number | undefined,
    orderWrites: [...new Set(values.orderWrite as OrderWrite[])],
    url: values.url as string | undefined,
    outDir: values.out as string,
    taskset: values.taskset === true,
    traces: values.trace as TraceSetting[] | undefined,
    command: npmCommand('bench', args),
  };
}

export async function runBench(options: BenchOptions, print: (line: string) => void = console.log): Promise<{ report: BenchReport; files: string[] }> {
  assertWritableDir(options.outDir);
  const scenario = loadScenario(options.scenario);
  const load = {
    ...scenario.load,
    ...(options.connections ? { connections: options.connections } : {}),
    // A duration given on the command line replaces the scenario's bound (time or count).
    ...(options.durationSec ? { durationSec: options.durationSec, totalRequests: undefined } : {}),
  };
  const settings = {
    initialStock: options.stock ?? scenario.initialStock,
    lockTtlMs: scenario.lockTtlMs,
    businessDelayMs: scenario.businessDelayMs,
    segments: scenario.segments,
  };

  // In this process's environment: the load tool it forks reads it, and so do the instances it starts (whose run worker forks the runs' load).
  if (options.taskset) Object.assign(process.env, { [CPU_PINNING_VARIABLES.load]: TASKSET_CPUS.load, [CPU_PINNING_VARIABLES.lab]: TASKSET_CPUS.lab });
  const startedAt = new Date();
  // No store-cut proxy: the bench runs no faults, and the extra hop costs throughput.
  const { client, lab, stop } = await openLabSession(options, { keyPrefix: 'ol-bench', basePort: 3101, storeProxy: false, countGatewayAnswers: true, log: print });
  try {
    // Only beside a lab of its own: a lab at --url may run on another machine than this process.
    const bare = lab ? await measureBareFastify(load) : null;
    if (bare) print(`bench: bare Fastify no-op ${bare.throughput} req/s`);
    const finished: RunView[] = [];
    for (const [i, orderWrite] of options.orderWrites.entries()) {
      // The first batch opens with a discarded warm-up run (ceilingWarmUp), then measures the ceiling.
      const batch = await client.queueBatch({ ...settings, orderWrite, load, strategies: options.strategies, includeCeiling: i === 0, scenario: scenario.name });
      finished.push(...(await followRuns(`bench (orders written ${orderWrite})`, client, batch.runs, process.stdout, print)));
    }
    // The same no-op through the lab's entry point, the instances as warm as the ceiling left them.
    const viaGateway = lab ? await measureNoop(lab.gatewayUrl, async () => lab.edge.takeAnswers(), load) : null;
    if (viaGateway) print(`bench: the service's no-op through the gateway ${viaGateway.throughput} req/s`);
    // The bound is the first way of writing's: its rows get the efficiency column.
    const boundWrite = options.orderWrites[0];
    const uncontended = await Promise.all(lockStrategies(options.strategies, STRATEGY_CATALOGUE).map((s) => client.queueRun({ ...uncontendedRun(s, settings, scenario.name), orderWrite: boundWrite })));
    const bounds = new Map((await followRuns('round-trip bounds', client, uncontended, process.stdout, print)).map((run) => [run.params.strategy, roundTripBound(run.result?.lockEvents ?? [])]));
    const { ceiling, rows } = withCeiling(finished.filter((run) => !run.params.warmUp).map(benchRow));
    const report: BenchReport = {
      command: options.command,
      scenario: scenario.name,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      machine: machineInfo(),
      instances: lab ? options.instances : (finished[0]?.result?.instances.length ?? 0),
      settings: { ...settings, connections: load.connections, durationSec: load.durationSec, totalRequests: load.totalRequests, orderWrites: options.orderWrites },
      ceiling,
      bareFastify: bare ? withCeilingShare(bare, ceiling) : null,
      throughGateway: viaGateway ? withGatewayShares(viaGateway, bare, ceiling) : null,
      rows: rows.map((row) => withRoundTrip(row, row.orderWrite === boundWrite ? (bounds.get(row.strategy) ?? null) : null)),
    };
    const markdown = markdownTable(report);
    print(`\n${markdown}\n`);
    const stem = `bench-${fileStamp(report.startedAt)}`;
    const files = [
      ...writeReportFiles(options.outDir, stem, report, markdown, report.command),
      ...writeReportFiles(options.outDir, 'latest', report, markdown, report.command),
      ...(await writeBenchCharts(options.outDir, stem, report)),
      ...(await writeBenchCharts(options.outDir, 'latest', report)),
    ];
    print(`written: ${files.slice(0, 2).join(', ')}`);
    return { report, files };
  } finally {
    await stop();
  }
}

/** A scaling run's options: one window for all its counts, as its instances are started with. */
export function parseScalingRun(args: string[]): ReturnType<typeof parseScalingArgs> {
  if (args.some((a) => a === '--trace' || a.startsWith('--trace='))) throw new UsageError('--trace starts a lab for each window and --instances with a list one for each count: give one of them');
  return parseScalingArgs(args, parseBenchArgs);
}

/** One bench, or one per trace window given. */
async function benchOnce({ traces, ...options }: ReturnType<typeof parseBenchArgs>): Promise<BenchReport[]> {
  if (!traces) return [(await runBench(options)).report];
  return (await runTraceSides(options, traces, runBench)).report.runs.map((run) => run.report);
}

if (require.main === module) {
  (async () => {
    const args = process.argv.slice(2);
    const reports = isScalingRun(args) ? (await runScaling(parseScalingRun(args), runBench)).report.runs : await benchOnce(parseBenchArgs(args));
    process.exit(reports.some((report) => benchTrouble(report).length) ? 1 : 0);
  })().catch(exitOnCliError);
}
