import type { StrategyDescription } from '@oversell/contracts';
import { uuidLuaLock } from '@oversell/locks';
import { lockOnService } from '../../compose/service-lock';
import type { StrategyDefinition } from '../../compose/strategy-definition';
import { SEGMENTED_DESCRIPTION, SegmentedStrategy } from '../../compose/segmented-stock';
import { clusterSegments } from './cluster-segments';
import { RedisClusterConnection } from './redis-cluster-connection';

const DESCRIPTION: StrategyDescription = {
  ...SEGMENTED_DESCRIPTION,
  name: 'segmented-cluster',
  title: 'Segmented stock on a Redis Cluster',
  needs: ['redis-cluster'],
  description:
    "The segmented strategy with its segments on a three-master Redis Cluster (REDIS_CLUSTER_NODES) instead of the lab's one Redis. Each segment's stock, lock and moves keys share one hash tag, {<run>:<product>:seg<i>.<n>}, so they sit in one slot and the segment's scripts may touch them together; the tags are chosen so that segment i's slot belongs to master i mod 3, so the segments' locks and stock writes go to different servers. The orders that MGET the segments on one Redis GET them one by one here (a command may not span slots).",
  guarantee: `${SEGMENTED_DESCRIPTION.guarantee} Each segment lives on one master, so its lock and its stock are as consistent as on a single Redis.`,
  pitfall: `${SEGMENTED_DESCRIPTION.pitfall} On the cluster, a command or script over two segments' keys is refused (CROSSSLOT): nothing may read or write several segments atomically. No replicas here: a master that dies takes its segments with it.`,
  symptom: `${SEGMENTED_DESCRIPTION.symptom} In the bench it is the segmented row with its segments on three servers (on one machine the three share its cores).`,
  steps: SEGMENTED_DESCRIPTION.steps.map((step, i) => (i === 0 ? step.replace('MGET every segment', 'GET each segment (one command per slot)') : step)),
};

/** segmented, with its segments spread over the masters of a Redis Cluster. */
export const segmentedCluster: StrategyDefinition = {
  name: 'segmented-cluster',
  needs: DESCRIPTION.needs,
  create: (deps) => {
    const connection = new RedisClusterConnection(deps.options.lockServices?.['redis-cluster'], (close) => deps.onShutdown(close));
    const lock = lockOnService('redis-cluster', deps, () => ({ lock: uuidLuaLock(connection.redis), close: () => undefined }));
    return new SegmentedStrategy(deps, clusterSegments(connection, deps.options.keyPrefix), lock, DESCRIPTION);
  },
};
