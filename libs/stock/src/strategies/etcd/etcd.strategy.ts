import { connectEtcd } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';
import { FENCED_STOCK_SCRIPTS } from '../../redis/fenced-stock';

/** etcd's mutex around the Redis stock read-check-write, on the etcd at ETCD_ENDPOINTS. */
export const etcd = lockedRedisStock('etcd', luaScriptsOf(...FENCED_STOCK_SCRIPTS), (deps) => lockOnService('etcd', deps, connectEtcd));
