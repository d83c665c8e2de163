/**
 * `npm run bench:locks`: every lock of @oversell/locks and the npm locks people use, under one workload.
 *   --seconds 10  --passes 3  --locks watchdog,redlock  --processes 3  --workers 50  --out bench-results
 */
import { cliCommand, commaList, exitOnCliError, parseCommand, plainOption, valueOption, wholeNumber } from '@oversell/cli';
import { resolve } from 'node:path';
import { runLockBench, type LockBenchOptions } from './lock-bench';
import { isLockName, LOCK_NAMES } from './locks-under-test';

const BENCH_RESULTS_DIR = resolve(__dirname, '..', '..', '..', 'bench-results');

/** The lock bench's options; a fresh command per parse (commander keeps the values it parsed). */
export function lockBenchCommand() {
  return cliCommand('bench:locks', {
    en: 'Every lock of @oversell/locks and the npm locks people use, under one workload: OS processes × workers looping acquire → GET → SET → release on one Redis key.',
    zh: '在同一负载下测 @oversell/locks 的每把锁以及常用的 npm 锁：多个系统进程 × 工作者，对同一个 Redis 键循环执行 加锁 → GET → SET → 释放。',
  })
    .addOption(valueOption('--seconds <n>', { en: 'seconds each lock is measured', zh: '每把锁测量的秒数' }, wholeNumber(1, 600)).default(10))
    .addOption(
      valueOption('--passes <n>', { en: "times every lock is measured, each pass in another order; the table shows each lock's median pass", zh: '每把锁测量的轮数，每轮顺序不同；表中给出每把锁的中位数那一轮' }, wholeNumber(1, 9)).default(3),
    )
    .addOption(valueOption('--locks <list>', { en: 'the locks to measure', zh: '要测的锁' }, commaList(LOCK_NAMES), { en: 'all of them', zh: '全部' }))
    .addOption(valueOption('--processes <n>', { en: 'OS processes contending', zh: '参与争抢的系统进程数' }, wholeNumber(1, 16)).default(3))
    .addOption(valueOption('--workers <n>', { en: 'workers in each process', zh: '每个进程中的工作者数' }, wholeNumber(1, 1000)).default(50))
    .addOption(
      plainOption('--auto-pipelining', {
        en: "ioredis's enableAutoPipelining on every process's Redis connection, for every lock alike (off by default, as the peers' READMEs connect)",
        zh: '为每个进程的 Redis 连接开启 ioredis 的 enableAutoPipelining，所有锁一视同仁（默认关闭，与各同类库 README 的连接方式一致）',
      }),
    )
    .addOption(plainOption('--out <dir>', { en: 'folder the report is written to', zh: '报告写入的目录' }).default(BENCH_RESULTS_DIR, 'bench-results/'));
}

export function parseLockBenchArgs(args: string[]): LockBenchOptions {
  const values = parseCommand(lockBenchCommand(), args);
  return {
    locks: ((values.locks as string[] | undefined) ?? LOCK_NAMES).filter(isLockName),
    seconds: values.seconds as number,
    passes: values.passes as number,
    processes: values.processes as number,
    workers: values.workers as number,
    autoPipelining: values.autoPipelining === true,
    outDir: values.out as string,
    command: `npm run bench:locks${args.length ? ' -- ' + args.join(' ') : ''}`,
  };
}

if (require.main === module) {
  (async () => {
    const { files } = await runLockBench(parseLockBenchArgs(process.argv.slice(2)));
    console.log(`written: ${files.slice(0, 2).join(', ')}`);
  })().catch(exitOnCliError);
}
