import { uuidLuaLock } from '@oversell/locks';
import { lockOnService } from '../../compose/service-lock';
import type { StrategyDefinition } from '../../compose/strategy-definition';
import { SEGMENT_LOCK_SCRIPTS, SegmentedStrategy } from '../../compose/segmented-stock';
import { clusterSegments } from './cluster-segments';
import { RedisClusterConnection } from './redis-cluster-connection';

/** segmented, with its segments spread over the masters of a Redis Cluster. */
export const segmentedCluster: StrategyDefinition<'segmented-cluster'> = {
  name: 'segmented-cluster',
  scripts: SEGMENT_LOCK_SCRIPTS,
  create: (deps) => {
    const connection = new RedisClusterConnection(deps.options.lockServices?.['redis-cluster'], (close) => deps.onShutdown(close));
    const lock = lockOnService('redis-cluster', deps, () => ({ lock: uuidLuaLock(connection.redis), close: () => undefined }));
    return new SegmentedStrategy(deps, clusterSegments(connection, deps.options.keyPrefix), lock, 'segmented-cluster');
  },
};
