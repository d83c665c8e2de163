import { RedisConnections, DEFAULT_STOCK_OPTIONS, type StockOptions } from '@oversell/stock';
import { freshKeyPrefix, testRedisOptions } from '@oversell/stock/testing';
import { randomUUID } from 'node:crypto';
import type { LabOptions } from '../lab.options';
import { RunFiguresReader } from '../figures/run-figures.reader';
import { instancesKey, RunFigureKeys } from '../redis-keys';
import { INSTANCE_SILENT_AFTER_MS, InstanceRegistry, RunInstancesWatch, type InstanceBeat } from './instance-registry';

/** The run worker's judgement of which instances stopped, over beats and figures in the real Redis. */
const options: StockOptions = { ...DEFAULT_STOCK_OPTIONS, keyPrefix: freshKeyPrefix(), instanceId: 'worker', redis: testRedisOptions() };
let connections: RedisConnections;
let registry: InstanceRegistry;
let reader: RunFiguresReader;

beforeAll(() => {
  connections = new RedisConnections(options);
  registry = new InstanceRegistry(connections, options, { instanceUrl: 'http://127.0.0.1:1', port: 1 } as LabOptions);
  reader = new RunFiguresReader(connections, options);
});

afterAll(async () => {
  const left = await connections.commands.keys(`${options.keyPrefix}:*`);
  if (left.length) await connections.commands.del(...left);
  await connections.onApplicationShutdown();
});

const T0 = 1_800_000_000_000;
const beatOf = (instance: string, pid: number, at: number): InstanceBeat => ({ instance, url: 'http://127.0.0.1:3001', port: 3001, pid, rssBytes: 1, at });
/** What an instance's heartbeat writes. */
const beat = (b: InstanceBeat) => connections.commands.hset(instancesKey(options.keyPrefix), b.instance, JSON.stringify(b));
/** What one applied figure batch of the instance adds. */
const flushed = (runId: string, instance: string) => connections.commands.hincrby(new RunFigureKeys(options.keyPrefix, runId).batchesByInstance, instance, 1);

function watch(runId: string, instances: InstanceBeat[]): RunInstancesWatch {
  return new RunInstancesWatch(registry, () => reader.batchesByInstance(runId), instances, T0);
}

it('keeps an instance whose heartbeat is late while its figures keep arriving, and calls it gone once both stop', async () => {
  const runId = randomUUID();
  const busy = beatOf(`busy-${runId}`, 41, T0);
  await beat(busy);
  const watching = watch(runId, [busy]);
  // Its last beat is older than the silence limit; its figures moved since.
  for (const s of [1, 2, 3, 4, 5]) {
    await flushed(runId, busy.instance);
    expect(await watching.gone(T0 + s * 1000)).toEqual([]);
  }
  expect(await watching.gone(T0 + 5000 + INSTANCE_SILENT_AFTER_MS - 1)).toEqual([]);
  expect(await watching.gone(T0 + 5000 + INSTANCE_SILENT_AFTER_MS)).toEqual([busy]);
});

it('calls an instance gone at once when it came back as another process, or shut down', async () => {
  const runId = randomUUID();
  const restarted = beatOf(`restarted-${runId}`, 51, T0);
  const stopped = beatOf(`stopped-${runId}`, 52, T0);
  await beat({ ...restarted, pid: 99 });
  expect(await watch(runId, [restarted, stopped]).gone(T0 + 1)).toEqual([restarted, stopped]);
});
