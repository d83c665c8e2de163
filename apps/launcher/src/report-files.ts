import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

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
export function machineInfo(): { cpus: number; memoryGb: number; node: string } {
  return { cpus: cpus().length, memoryGb: Math.round(totalmem() / 1024 ** 3), node: process.version };
}
