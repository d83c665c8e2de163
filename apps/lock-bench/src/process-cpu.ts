import type Redis from 'ioredis';
import { readFileSync } from 'node:fs';

/** Linux reports utime and stime in USER_HZ ticks, 100 a second on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * A process's CPU time so far (user + system, ms) from /proc/<pid>/stat; null when it cannot be read
 * (no /proc, or the process is on another machine or gone). Read before and after a measured window,
 * it charges each process its own CPU, which req/s on a shared machine hides.
 */
export function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count the fields after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 (utime, stime); fields[0] is field 3.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** The Redis server's process id, as it reports it (INFO server); its CPU is readable only on this machine. */
export async function redisPid(redis: Redis): Promise<number | undefined> {
  const pid = /^process_id:(\d+)/m.exec(await redis.info('server'))?.[1];
  return pid === undefined ? undefined : Number(pid);
}
