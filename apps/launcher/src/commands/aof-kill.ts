/**
 * `npm run aof-kill`: the experiment the lab runs instead of a redlock-aof-everysec preset. For each
 * appendfsync mode (everysec, always) it starts one RedLock node with appendonly yes
 * (infra/scripts/ensure-redis-nodes.sh), writes a grant (SET key token NX PX 60000, as RedLock sets it on
 * each node), SIGKILLs the redis-server the moment the grant is answered, restarts it on the same AOF, and
 * reports whether the grant came back. It does under both: a killed process loses nothing, because its
 * write() had reached the kernel's page cache, which outlives it. The grant everysec can lose is the one
 * still in the page cache when the HOST dies, which one machine cannot stage honestly (docs/pitfalls.md).
 *   --out bench-results/
 */
import { cliCommand, exitOnCliError, parseCommand } from '@oversell/cli';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { npmCommand, outOption } from './cli-options';
import { REPO_ROOT } from '../lab/paths';
import { aofKillMarkdown, AOF_KILL_MODES, type AofKillRecord } from '../reports/aof-kill-report';
import { assertWritableDir, fileStamp, machineInfo, writeReportFiles } from '../reports/report-files';

const run = promisify(execFile);
const NODES_SCRIPT = resolve(REPO_ROOT, 'infra', 'scripts', 'ensure-redis-nodes.sh');

async function nodes(...args: string[]): Promise<string> {
  return (await run('bash', [NODES_SCRIPT, ...args])).stdout.trim();
}

async function killAfterGrant(appendfsync: AofKillRecord['appendfsync']): Promise<AofKillRecord> {
  const address = await nodes('start', '--nodes', '1', '--appendonly', '--appendfsync', appendfsync, '--owner', String(process.pid));
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  try {
    const node = new Redis({ host, port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    await node.connect();
    const pid = Number(/^process_id:(\d+)/m.exec(await node.info('server'))![1]);
    const key = `aof-kill:${randomUUID()}`;
    const token = randomUUID();
    if ((await node.set(key, token, 'PX', 60_000, 'NX')) !== 'OK') throw new Error(`the node on ${address} refused a grant on a fresh key`);
    const answeredAt = performance.now();
    process.kill(pid, 'SIGKILL');
    const killedAfterReplyMs = performance.now() - answeredAt;
    node.disconnect();
    await nodes('start-node', address);
    const restarted = new Redis({ host, port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    await restarted.connect();
    const [value, pttl] = [await restarted.get(key), await restarted.pttl(key)];
    restarted.disconnect();
    return { appendfsync, killedAfterReplyMs, grantAfterRestart: value === token ? 'kept' : 'lost', pttlAfterRestartMs: pttl };
  } finally {
    await nodes('stop', address);
  }
}

if (require.main === module) {
  (async () => {
    const args = process.argv.slice(2);
    const values = parseCommand(
      cliCommand('aof-kill', {
        en: 'SIGKILLs a RedLock node with appendonly yes right after a grant, under appendfsync everysec and always, and shows whether the grant survives its restart.',
        zh: '在 appendonly yes 的 RedLock 节点应答加锁后立即 SIGKILL 它（appendfsync 分别为 everysec 和 always），显示重启后锁是否仍在。',
      }).addOption(outOption()),
      args,
    );
    const outDir = values.out as string;
    assertWritableDir(outDir);
    const startedAt = new Date().toISOString();
    const records: AofKillRecord[] = [];
    for (const mode of AOF_KILL_MODES) records.push(await killAfterGrant(mode));
    const markdown = aofKillMarkdown(records);
    console.log(markdown);
    const files = writeReportFiles(outDir, `aof-kill-${fileStamp(startedAt)}`, { startedAt, machine: machineInfo(), records }, markdown, npmCommand('aof-kill', args));
    console.log(`written: ${files.join(', ')}`);
  })().catch(exitOnCliError);
}
