import type { StrategyDescription } from '@oversell/contracts';
import { RELEASE_LOCK, uuidLuaLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';

const DESCRIPTION: StrategyDescription = {
  name: 'uuid-lua',
  title: 'Owner token + Lua release',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  description: 'Writes a unique owner token into the lock (SET NX PX) and releases it with a Lua script that deletes the key only if it still holds that token.',
  guarantee: 'Never deletes another holder\'s lock. Mutual exclusion while every holder finishes within the TTL.',
  pitfall: 'Nothing extends the lease: when the business time exceeds the TTL the lock expires, a second order is granted it while the first is still inside, and both write the same stock (double grant). Oversells.',
  reproduce: 'Business delay > lock TTL (e.g. TTL 100 ms, delay 250 ms). The lock timeline shows overlapping bars.',
  symptom:
    'Releases never delete someone else\'s lock, yet with a business delay above the TTL leases still expire: ' +
    'dashed, red overlapping bars in the lock timeline and a red oversold counter.',
  steps: ['SET lock <token> NX PX ttl (retry with backoff)', 'GET stock', 'if stock < n: sold out', 'business delay', 'SET stock = stock − n', 'INSERT the order', 'EVAL release-lock: DEL only if the value is still <token>'],
  choice: {
    benchLock: 'uuid-lua',
    runsOn: 'one Redis',
    complexity: 'low: SET NX PX and a compare-and-delete Lua script',
    reliability: 'exclusive only while every holder finishes within its fixed TTL; no lost-lock signal',
    underFault: {
      crash: "The dead holder's key expires with its TTL; orders wait at most one TTL, nothing is sold twice.",
      pause: 'A holder paused past the TTL loses the lock without knowing; the next holder enters and the paused one still writes: oversold.',
      'store-cut': 'A holder cut off from Redis past the TTL loses the lock without knowing; when the cut heals it writes the stock it read before: oversold.',
      failover: 'The lock key lives on the Redis master only until it replicates: a master that dies first takes it along, the promoted replica grants the lock again and two holders sell the same unit (the master-failover pitfall, on a Sentinel group of the lab\'s own).',
    },
  },
  scripts: luaScriptsOf(RELEASE_LOCK),
};

/** The owner-token lock (SET NX PX, Lua compare-and-delete) around the Redis stock read-check-write. */
export const uuidLua = lockedRedisStock(DESCRIPTION, (deps) => uuidLuaLock(deps.lockRedis));
