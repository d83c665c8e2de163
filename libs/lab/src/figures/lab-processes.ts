import { readFile } from 'node:fs/promises';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { InstanceBeat } from '../instances/instance-registry';
import type { LabProcess } from './process-cpu';

const LOOPBACK = /^(127\.|localhost$|::1$)/;

/**
 * The processes a run's load costs CPU in, as far as this machine can see them: the instances (their
 * heartbeats carry their pids), and Redis and MariaDB when they listen on loopback (their pids are then
 * this machine's: Redis says its own, MariaDB's is in its pid file).
 */
export async function labProcesses(instances: readonly InstanceBeat[], redis: Redis, redisHost: string, mysql: DataSource): Promise<LabProcess[]> {
  const processes: LabProcess[] = instances.map((beat) => ({ role: 'instance', name: beat.instance, pid: beat.pid }));
  if (LOOPBACK.test(redisHost)) {
    const pid = /process_id:(\d+)/.exec(await redis.info('server').catch(() => ''))?.[1];
    if (pid) processes.push({ role: 'redis', name: redisHost, pid: Number(pid) });
  }
  const mysqlHost = String((mysql.options as { host?: string }).host ?? '127.0.0.1');
  if (LOOPBACK.test(mysqlHost)) {
    const pid = await mysqlPid(mysql);
    if (pid) processes.push({ role: 'mysql', name: mysqlHost, pid });
  }
  return processes;
}

async function mysqlPid(mysql: DataSource): Promise<number | null> {
  try {
    const [{ file }] = (await mysql.query('SELECT @@pid_file AS file')) as { file: string }[];
    const pid = Number((await readFile(file, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
