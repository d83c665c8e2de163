import { CuttableProxy, testRedisOptions } from '@oversell/stock/testing';
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
