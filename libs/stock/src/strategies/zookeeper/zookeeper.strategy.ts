import { connectZookeeper } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';
import { FENCED_STOCK_SCRIPTS } from '../../redis/fenced-stock';

/** Curator's mutex around the Redis stock read-check-write, on the ZooKeeper at ZOOKEEPER_CONNECT. */
export const zookeeper = lockedRedisStock('zookeeper', luaScriptsOf(...FENCED_STOCK_SCRIPTS), (deps) => lockOnService('zookeeper', deps, connectZookeeper));
