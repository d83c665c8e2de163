import { LAB_REPORT_FILES, latestPitfallsReportName, type ChoiceInputs, type LoadedReport } from '@oversell/contracts';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A report under the lab's results folder, parsed; null when it is not there or is no JSON (a bench still writing it). */
async function readReport<T>(dir: string, name: string | null): Promise<LoadedReport<T> | null> {
  if (name === null) return null;
  try {
    return { file: join('bench-results', name), report: JSON.parse(await readFile(join(dir, name), 'utf8')) as T };
  } catch {
    return null;
  }
}

/** The latest bench, lock-bench and pitfalls reports this lab's commands left in `dir` (bench-results/). */
export async function readLabReports(dir: string): Promise<ChoiceInputs> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const [bench, locks, pitfalls] = await Promise.all([
    readReport<NonNullable<ChoiceInputs['bench']>['report']>(dir, names.includes(LAB_REPORT_FILES.bench) ? LAB_REPORT_FILES.bench : null),
    readReport<NonNullable<ChoiceInputs['locks']>['report']>(dir, names.includes(LAB_REPORT_FILES.locks) ? LAB_REPORT_FILES.locks : null),
    readReport<NonNullable<ChoiceInputs['pitfalls']>['report']>(dir, latestPitfallsReportName(names)),
  ]);
  return { bench, locks, pitfalls };
}
