/**
 * `npm run pitfalls`: every pitfall preset (or the ones named) against the real lab, each repetition the
 * broken side then the fix, one run after another through the runs API. Prints how often each broken side
 * showed its pitfall and each fix stayed clean, and writes JSON + markdown under bench-results/.
 *   --preset double-click,mis-deletion (repeatable)  --repeat 20  --instances 2  --strict
 *   --url http://127.0.0.1:8080   (use a lab that is already running instead of starting one)
 */
import { PITFALL_PRESETS, findPitfallPreset, pitfallRunParams, type PitfallPreset, type PitfallSide, type RunView } from '@oversell/contracts';
import { cliCommand, commaList, exitOnCliError, parseCommand, plainOption, repeatable, valueOption, wholeNumber } from '@oversell/cli';
import { instancesOption, npmCommand, outOption, urlOption } from './cli-options';
import type { LabClient } from '../lab/lab-client';
import { openLabSession, type LabRunOptions } from '../lab/lab-session';
import { failedRunRecord, pitfallRunRecord, pitfallsMarkdown, tallyLine, tallyPreset, type PitfallRunRecord, type PitfallsReport } from '../reports/pitfalls-report';
import { assertWritableDir, fileStamp, machineInfo, writeReportFiles } from '../reports/report-files';
import { runEnded, runProgress } from './run-progress';

/** More runs than fit in a minute (each is seconds long), so injected crashes never look like a crash loop. */
const CRASH_RUNS_PER_MINUTE = 60;

export interface PitfallsOptions extends LabRunOptions {
  presets: PitfallPreset[];
  repeat: number;
  /** Exit 1 when a target is not met (by default the exit code only says whether it ran). */
  strict: boolean;
}

/** The pitfalls' options; a fresh command per parse (commander keeps the values it parsed). */
export function pitfallsCommand() {
  return cliCommand('pitfalls', {
    en: 'Every pitfall preset (or the ones named) on the lab, the broken side then the fix; prints how often each showed its pitfall or stayed clean.',
    zh: '在实验室上运行每个陷阱预设（或指定的几个），先跑有缺陷的一侧再跑修复；打印各自出现陷阱或保持正确的次数。',
  })
    .addOption(valueOption('--preset <list>', { en: 'the presets to run', zh: '要运行的预设' }, repeatable(commaList(PITFALL_PRESETS.map((preset) => preset.name))), { en: 'all of them', zh: '全部' }))
    .addOption(valueOption('--repeat <n>', { en: 'repetitions of each preset', zh: '每个预设重复的次数' }, wholeNumber(1, 1000)).default(1))
    .addOption(instancesOption(2))
    .addOption(plainOption('--strict', { en: 'exit 1 when a target is not met (by default the exit code only says whether it ran)', zh: '未达目标时以 1 退出（默认退出码只表示是否跑完）' }))
    .addOption(urlOption())
    .addOption(outOption());
}

export function parsePitfallsArgs(args: string[]): PitfallsOptions {
  const values = parseCommand(pitfallsCommand(), args);
  const names = (values.preset ?? []) as string[];
  return {
    presets: names.length ? [...new Set(names)].map((name) => findPitfallPreset(name)!) : [...PITFALL_PRESETS],
    repeat: values.repeat as number,
    instances: values.instances as number,
    strict: values.strict === true,
    url: values.url as string | undefined,
    outDir: values.out as string,
    command: npmCommand('pitfalls', args),
  };
}

export async function runPitfalls(options: PitfallsOptions, print: (line: string) => void = console.log): Promise<{ report: PitfallsReport; files: string[] }> {
  assertWritableDir(options.outDir);
  const startedAt = new Date();
  const toStderr = (line: string) => process.stderr.write(`${line}\n`);
  const total = options.repeat * options.presets.reduce((sum, preset) => sum + preset.sides.length, 0);
  const progress = runProgress('pitfalls', total, process.stderr, toStderr);
  const runs: PitfallRunRecord[] = [];
  // With --url the lab is someone else's: how many instances it has is read off the runs' results.
  let lastResultInstances: number | undefined;
  let ownLab = false;
  // Why the runs stopped: once one could not be queued or was lost, the rest are not run but recorded failed.
  let stoppedBy: string | null = null;
  try {
    for (const presets of labGroups(options.presets)) {
      // The store-cut proxy stays on: a preset cuts the store. Every crash here is a fault a run injected, one
      // per run at most: the launcher's crash-loop guard (5 a minute) stopped --repeat 3 at the crash presets.
      const services = needsSentinels(presets[0]) ? (['redis-sentinel'] as const) : undefined;
      const { client, lab, allUp, stop } = await openLabSession({ ...options, services }, { keyPrefix: 'ol-pitfalls', basePort: 3201, storeProxy: true, maxRestartsPerMinute: CRASH_RUNS_PER_MINUTE, log: toStderr });
      ownLab ||= lab !== null;
      try {
        for (const preset of presets) {
          for (let repetition = 1; repetition <= options.repeat; repetition++) {
            // One run at a time, broken side first: the fix runs under the same fault on a lab the broken side has left.
            for (const side of preset.sides) {
              const label = `${preset.name} #${repetition} ${side.role} (${side.strategy})`;
              let record: PitfallRunRecord;
              if (stoppedBy) {
                record = failedRunRecord(preset, side, repetition, `not run: ${stoppedBy}`);
              } else {
                await allUp();
                progress.running(label);
                const ended = await runSide(client, preset, side);
                if ('error' in ended) stoppedBy = `${label} ${ended.error}`;
                else lastResultInstances = ended.result?.instances.length ?? lastResultInstances;
                record = 'error' in ended ? failedRunRecord(preset, side, repetition, ended.error, ended.runId) : pitfallRunRecord(preset, side, repetition, ended);
              }
              progress.ended(label, record);
              runs.push(record);
            }
          }
        }
      } finally {
        await stop();
      }
    }
  } finally {
    progress.stop();
  }
  const presets = options.presets.map((preset) => tallyPreset(preset, runs));
  const report: PitfallsReport = {
    command: options.command,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machineInfo(),
    instances: ownLab ? options.instances : (lastResultInstances ?? 0),
    repeat: options.repeat,
    allTargetsMet: presets.every((t) => t.brokenTargetMet && t.fixTargetMet),
    presets,
    runs,
  };
  for (const tally of presets) print(`${tally.preset}: ${tallyLine(tally)} — target ${tally.brokenTargetMet && tally.fixTargetMet ? 'met' : 'NOT met'}`);
  const files = writeReportFiles(options.outDir, `pitfalls-${fileStamp(report.startedAt)}`, report, pitfallsMarkdown(report), report.command);
  print(`written: ${files.join(', ')}`);
  return { report, files };
}

/**
 * 1 when no run ran at all (a lab out of reach, every run refused), or with --strict when a target was
 * missed; else 0: without --strict the exit code says whether the runs ran, not what they showed.
 */
export function pitfallsExitCode(report: Pick<PitfallsReport, 'runs' | 'allTargetsMet'>, strict: boolean): 0 | 1 {
  const noneRan = report.runs.every((run) => run.status === 'failed');
  return noneRan || (strict && !report.allTargetsMet) ? 1 : 0;
}

/** A failover fault fails over the Sentinel group its lab's instances keep their Redis locks on. */
function needsSentinels(preset: PitfallPreset): boolean {
  return preset.sides.some((side) => side.settings.faults?.some((fault) => fault.kind === 'failover'));
}

/**
 * The presets in order, split where needsSentinels changes: each group runs on a lab of its own. With
 * a Sentinel group the Redis locks move off the stock's Redis, where a store cut would no longer reach
 * them, so the other presets run on a lab without one.
 */
function labGroups(presets: readonly PitfallPreset[]): PitfallPreset[][] {
  const groups: PitfallPreset[][] = [];
  for (const preset of presets) {
    const last = groups.at(-1);
    if (last && needsSentinels(last[0]) === needsSentinels(preset)) last.push(preset);
    else groups.push([preset]);
  }
  return groups;
}

/**
 * One side's run, queued and followed to its end; a run that cannot be queued or is lost while running
 * (the lab went away, polls kept failing) is an error that says so: the report is still written, with
 * what completed, this run failed with its reason and the ones after it failed as not run.
 */
async function runSide(client: LabClient, preset: PitfallPreset, side: PitfallSide): Promise<RunView | { error: string; runId: string | null }> {
  let queued: RunView;
  try {
    queued = await client.queueRun(pitfallRunParams(side, preset.name));
  } catch (error) {
    return { error: `could not be queued: ${messageOf(error)}`, runId: null };
  }
  try {
    return await runEnded(client, queued);
  } catch (error) {
    return { error: `lost while running: ${messageOf(error)}`, runId: queued.id };
  }
}

/** fetch's own message is only 'fetch failed': the cause (ECONNREFUSED, …) says why. */
function messageOf(error: unknown): string {
  // Read by shape: an Error from another realm (fetch's, under a test runner) is no instanceof Error here.
  const { message, cause } = (error ?? {}) as { message?: string; cause?: { code?: string; message?: string } };
  if (message === undefined) return String(error);
  return cause ? `${message} (${cause.code ?? cause.message})` : message;
}

if (require.main === module) {
  (async () => {
    const options = parsePitfallsArgs(process.argv.slice(2));
    const { report } = await runPitfalls(options);
    process.exit(pitfallsExitCode(report, options.strict));
  })().catch(exitOnCliError);
}
