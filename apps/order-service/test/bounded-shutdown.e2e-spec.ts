import { CuttableProxy, testRedisOptions, until } from '@oversell/stock/testing';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess, type ServiceProcess } from './service-process';

/**
 * An instance whose Redis stops answering mid-life (replies dropped, connections left open) is told to
 * stop: its shutdown hooks wait for replies that never come (BullMQ's workers, the connections' QUIT).
 * It must still exit on its own, saying why, before the launcher's SIGKILL (10 s): an orphaned instance
 * has nobody to SIGKILL it and would keep its port for good.
 */
let proxy: CuttableProxy;
let service: ServiceProcess | undefined;

beforeAll(async () => {
  const redis = testRedisOptions();
  proxy = new CuttableProxy(redis.host!, redis.port!);
  await proxy.start();
  service = await startServiceProcess({ env: { REDIS_PORT: String(proxy.port), RUN_WORKER: 'true' } });
});

afterAll(async () => {
  await service?.stop();
  await proxy.stop();
});

it('exits on its own within its grace period when a store stops answering during the shutdown', async () => {
  expect((await service!.request('/health')).status).toBe(200);
  proxy.swallowReplies();
  // SIGTERM, then SIGKILL from the test after 10 s if the process is still there.
  await service!.stop();
  expect({ alive: service!.alive, forcedExit: service!.output.some((line) => line.includes('shutdown still not done after 5000 ms')) }).toEqual({ alive: false, forcedExit: true });
});

it('a heap snapshot taken by signal (--heapsnapshot-signal=SIGUSR2) leaves it serving: only SIGTERM and SIGINT stop it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'oversell-heap-snapshot-'));
  const snapshotted = await startServiceProcess({ built: true, env: { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}` } });
  try {
    snapshotted.signal('SIGUSR2');
    const snapshotFile = () => readdirSync(dir).find((name) => name.endsWith('.heapsnapshot'));
    await until(async () => snapshotFile() !== undefined, 'the heap snapshot file is there', 30_000);
    // The snapshot is written on the main thread: a reply means it is done.
    expect((await snapshotted.request('/health')).status).toBe(200);
    expect(statSync(join(dir, snapshotFile()!)).size).toBeGreaterThan(0);
    expect(snapshotted.alive).toBe(true);
  } finally {
    await snapshotted.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

