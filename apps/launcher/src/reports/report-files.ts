import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@oversell/cli';

/**
 * Makes sure the reports can be written to outDir before a run starts: found out only at the end, a path
 * through a file or a read-only folder lost the whole run's report.
 */
export function assertWritableDir(outDir: string): void {
  try {
    mkdirSync(outDir, { recursive: true });
    accessSync(outDir, constants.W_OK);
  } catch (error) {
    throw new UsageError(`--out: cannot write reports to ${outDir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** Writes a report as `<stem>.json` and `<stem>.md` (the markdown followed by the command that made it); returns both paths. */
export function writeReportFiles(outDir: string, stem: string, report: unknown, markdown: string, command: string): [string, string] {
  mkdirSync(outDir, { recursive: true });
  const files: [string, string] = [join(outDir, `${stem}.json`), join(outDir, `${stem}.md`)];
  writeFileSync(files[0], JSON.stringify(report, null, 2));
  writeFileSync(files[1], `${markdown}\n\nCommand: \`${command}\`\n`);
  return files;
}

/** A file-name-safe stamp of an ISO time. */
export function fileStamp(iso: string): string {
  return iso.replace(/[:.]/g, '-');
}

/** The machine a report was measured on: its figures mean little without it. */
export interface MachineInfo {
  cpus: number;
  memoryGb: number;
  node: string;
  /** The 1, 5 and 15 min load averages as the report was written: a loaded machine's figures are lower. */
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  return { cpus: cpus().length, memoryGb: Math.round(totalmem() / 1024 ** 3), node: process.version, loadAverage: loadavg().map((load) => Math.round(load * 100) / 100) };
}
