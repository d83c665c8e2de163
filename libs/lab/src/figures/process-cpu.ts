import type { ProcessCpu, RunCpu } from '@oversell/contracts';
import { readFile } from 'node:fs/promises';

/**
 * Clock ticks per second of /proc's CPU times: USER_HZ, 100 on every Linux the lab runs on (it is fixed
 * by the kernel's ABI, not by CONFIG_HZ).
 */
const TICKS_PER_SECOND = 100;

/**
 * CPU a process has spent so far (user + system), in ms, from /proc/<pid>/stat; null where it cannot be
 * read (no such process here, another OS). Fields 14 and 15 after the command name, which sits in
 * parentheses and may itself hold spaces.
 */
export async function processCpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime 15.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/** A process of the lab, as a run's CPU figures name it. */
export interface LabProcess {
  role: ProcessCpu['role'];
  name: string;
  pid: number;
}

/**
 * The CPU the given processes spend between `start()` and `end()`. A process whose /proc entry is not
 * readable at both ends (not on this machine, gone meanwhile) is left out rather than counted as 0.
 */
export class CpuWindow {
  private readonly startedAt = Date.now();

  private constructor(
    private readonly processes: readonly LabProcess[],
    private readonly before: readonly (number | null)[],
  ) {}

  static async start(processes: readonly LabProcess[]): Promise<CpuWindow> {
    return new CpuWindow(processes, await Promise.all(processes.map((p) => processCpuMs(p.pid))));
  }

  /** `extra`: processes that measured themselves over the window (the forked load tool). */
  async end(extra: readonly ProcessCpu[] = []): Promise<RunCpu> {
    const after = await Promise.all(this.processes.map((p) => processCpuMs(p.pid)));
    const measured = this.processes.flatMap((p, i) => {
      const [from, to] = [this.before[i], after[i]];
      return from === null || to === null ? [] : [{ role: p.role, name: p.name, cpuMs: Math.max(0, to - from) }];
    });
    return { windowMs: Date.now() - this.startedAt, processes: [...extra, ...measured] };
  }
}
