import { uuidLuaLock } from '@oversell/locks';
import { oneRedisSegments } from '../../compose/segment-store';
import { SEGMENTED_DESCRIPTION, SegmentedStrategy } from '../../compose/segmented-stock';
import type { StrategyDefinition } from '../../compose/strategy-definition';

export const segmented: StrategyDefinition = {
  name: 'segmented',
  create: (deps) => {
    const store = oneRedisSegments(deps.redis, deps.options.keyPrefix);
    return new SegmentedStrategy(deps, store, uuidLuaLock(store.redis), SEGMENTED_DESCRIPTION);
  },
};
