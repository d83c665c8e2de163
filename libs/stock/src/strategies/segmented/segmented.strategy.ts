import { uuidLuaLock } from '@oversell/locks';
import { oneRedisSegments } from '../../compose/segment-store';
import { SEGMENT_LOCK_SCRIPTS, SegmentedStrategy } from '../../compose/segmented-stock';
import type { StrategyDefinition } from '../../compose/strategy-definition';

export const segmented: StrategyDefinition<'segmented'> = {
  name: 'segmented',
  scripts: SEGMENT_LOCK_SCRIPTS,
  create: (deps) => {
    const store = oneRedisSegments(deps.redis, deps.options.keyPrefix);
    return new SegmentedStrategy(deps, store, uuidLuaLock(store.redis), 'segmented');
  },
};
