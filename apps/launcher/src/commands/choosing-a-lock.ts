/**
 * `npm run choosing-a-lock`: writes docs/choosing-a-lock.md and the JSON the dashboard's Explain view
 * renders, from the strategy catalogue and the latest reports under bench-results/ (or the ones named).
 *   --bench bench-results/latest.json  --locks bench-results/locks-latest.json  --pitfalls bench-results/pitfalls-<stamp>.json
 */
import { choosingALock, describeStrategy, LAB_REPORT_FILES, latestPitfallsReportName, STRATEGY_NAMES, type BenchInput, type ChoiceInputs, type LoadedReport, type LockBenchInput, type PitfallsInput } from '@oversell/contracts';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { choosingALockMarkdown } from '../reports/choosing-a-lock-report';
import { cliCommand, exitOnCliError, filePath, parseCommand, UsageError, valueOption } from '@oversell/cli';
import { npmCommand } from './cli-options';
import { BENCH_RESULTS_DIR, REPO_ROOT } from '../lab/paths';

export const CHOOSING_A_LOCK_DOC = resolve(REPO_ROOT, 'docs', 'choosing-a-lock.md');
export const CHOOSING_A_LOCK_JSON = resolve(REPO_ROOT, 'apps', 'dashboard', 'src', 'generated', 'choosing-a-lock.json');

/** A report named on the command line (given) must exist; a default one may be missing: its figures are then not measured. */
export interface ReportChoice {
  file: string | null;
  given: boolean;
}

export interface ChoosingALockOptions {
  bench: ReportChoice;
  locks: ReportChoice;
  pitfalls: ReportChoice;
  doc: string;
  json: string;
  command: string;
}

/** The newest `pitfalls-<stamp>.json` under `dir`; null when there is none. */
function latestPitfallsReport(dir: string): string | null {
  const name = existsSync(dir) ? latestPitfallsReportName(readdirSync(dir)) : null;
  return name === null ? null : join(dir, name);
}

/** The command's options; a fresh command per parse (commander keeps the values it parsed). */
export function choosingALockCommand() {
  const file = (path: string) => ({ en: path, zh: path });
  return cliCommand('choosing-a-lock', {
    en: "Writes docs/choosing-a-lock.md and the Explain view's JSON from the strategies' descriptions and the latest reports.",
    zh: '根据各策略的说明和最新的报告，写出 docs/choosing-a-lock.md 以及 Explain 页面所用的 JSON。',
  })
    // Defaults said, not set: the newest pitfalls report is looked for only when none is named.
    .addOption(valueOption('--bench <file>', { en: 'bench report', zh: '基准测试报告' }, filePath, file('bench-results/latest.json')))
    .addOption(valueOption('--locks <file>', { en: 'lock bench report', zh: '锁基准测试报告' }, filePath, file('bench-results/locks-latest.json')))
    .addOption(valueOption('--pitfalls <file>', { en: 'pitfalls report', zh: '陷阱报告' }, filePath, { en: 'the newest bench-results/pitfalls-<stamp>.json', zh: '最新的 bench-results/pitfalls-<stamp>.json' }))
    .addOption(valueOption('--doc <file>', { en: 'the markdown written', zh: '写出的 markdown 文件' }, filePath, file(relative(REPO_ROOT, CHOOSING_A_LOCK_DOC))))
    .addOption(valueOption('--json <file>', { en: 'the JSON written', zh: '写出的 JSON 文件' }, filePath, file(relative(REPO_ROOT, CHOOSING_A_LOCK_JSON))));
}

export function parseChoosingALockArgs(args: string[]): ChoosingALockOptions {
  const values = parseCommand(choosingALockCommand(), args);
  const report = (name: string, fallback: string | null): ReportChoice =>
    values[name] === undefined ? { file: fallback, given: false } : { file: resolve(String(values[name])), given: true };
  return {
    bench: report('bench', join(BENCH_RESULTS_DIR, LAB_REPORT_FILES.bench)),
    locks: report('locks', join(BENCH_RESULTS_DIR, LAB_REPORT_FILES.locks)),
    pitfalls: report('pitfalls', latestPitfallsReport(BENCH_RESULTS_DIR)),
    doc: values.doc === undefined ? CHOOSING_A_LOCK_DOC : resolve(String(values.doc)),
    json: values.json === undefined ? CHOOSING_A_LOCK_JSON : resolve(String(values.json)),
    command: npmCommand('choosing-a-lock', args),
  };
}

/** A report file, parsed; null for a default file that is not there. A named file that is not there is a usage error. */
function readReport<T>({ file, given }: ReportChoice): LoadedReport<T> | null {
  if (file === null || !existsSync(file)) {
    if (given) throw new UsageError(`no such report: ${file}`);
    return null;
  }
  try {
    // Each latest file is a copy of a stamped one; whichever was read, the doc names it.
    return { file: relative(REPO_ROOT, file), report: JSON.parse(readFileSync(file, 'utf8')) as T };
  } catch (error) {
    throw new UsageError(`${file} is not a report: ${(error as Error).message}`);
  }
}

export async function writeChoosingALock(options: ChoosingALockOptions, print: (line: string) => void = console.log): Promise<string[]> {
  const inputs: ChoiceInputs = {
    bench: readReport<BenchInput>(options.bench),
    locks: readReport<LockBenchInput>(options.locks),
    pitfalls: readReport<PitfallsInput>(options.pitfalls),
  };
  const data = choosingALock(STRATEGY_NAMES.map((name) => describeStrategy(name)), inputs, options.command, new Date());
  for (const file of [options.doc, options.json]) mkdirSync(dirname(file), { recursive: true });
  writeFileSync(options.doc, choosingALockMarkdown(data));
  writeFileSync(options.json, JSON.stringify(data, null, 2) + '\n');
  for (const [label, source] of Object.entries(data.sources)) print(`${label}: ${source ? source.file : 'no report: not measured'}`);
  print(`${data.rows.length} strategies compared; written: ${relative(REPO_ROOT, options.doc)}, ${relative(REPO_ROOT, options.json)}`);
  return [options.doc, options.json];
}

if (require.main === module) {
  // Parsed inside the promise: a usage error is answered as one, not thrown as a stack trace.
  Promise.resolve(process.argv.slice(2)).then((args) => writeChoosingALock(parseChoosingALockArgs(args))).catch(exitOnCliError);
}
