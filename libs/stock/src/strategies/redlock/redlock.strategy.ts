import type { StrategyDescription } from '@oversell/contracts';
import { REDLOCK_RELEASE, redlock as redlockLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { QUORUM_LOCK_TRAITS, redisNodesLock } from '../../compose/redis-nodes-lock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';

const DESCRIPTION: StrategyDescription = {
  name: 'redlock',
  title: 'RedLock on 5 Redis nodes (written out)',
  ...QUORUM_LOCK_TRAITS,
  description:
    "RedLock as redis.io describes it, written out in the lock library: each order sends SET lock <token> NX PX ttl to five independent Redis masters at once (REDLOCK_NODES, not the lab's Redis; 500 ms per node at most). The lock is had when a majority (3 of 5) said OK and the validity, the TTL less the time the SETs took and the clocks' drift (1 % of the TTL + 2 ms), is still positive; otherwise the order deletes what it may have set and tries again after a short jittered backoff. Nothing extends the lease: the holder is told when its validity ends and then writes nothing. The stock stays in the lab's Redis, as for the other locks.",
  guarantee:
    'At most one holder while a majority of the five nodes keep their keys and their clocks run at about the same rate: it survives 2 of 5 nodes down. A holder whose validity ran out before its write writes nothing (lock_lost). With 3 of 5 nodes down the lock cannot be decided: orders are refused with 503 lock_unavailable and nothing is taken.',
  pitfall:
    "No fencing token: a holder paused past its validity between its check and its write (a stop-the-world GC) writes on while the next holder is inside (Kleppmann's objection). Safety rests on timing: a node whose clock jumps forward expires the key early. A node restarted without persistence forgets the grants it held, so a second majority can form (redis.io: AOF with fsync always, or keep a restarted node out for one TTL). Slow to hand over under contention (grant rate slow): every attempt is a round of five SETs, and waiters that retry together split the votes, none reaches 3, and all go round again; with many orders at once most of a flash sale can end lock_timeout.",
  reproduce:
    'Business delay > lock TTL: the validity runs out under the holder, which answers lock_lost and sells nothing (no oversell, no sale). Stop 3 of the 5 nodes (infra/scripts/ensure-redis-nodes.sh stop-node <address>): orders answer lock_unavailable; with 2 stopped they still sell. Compare its throughput with uuid-lua and redlock-lib in npm run bench.',
  symptom:
    'Lock bars never overlap while the business time fits in the TTL; above it orders end lock_lost rather than oversold. Throughput sits below uuid-lua: five SETs per attempt, and contended attempts that split the votes go round again.',
  steps: [
    'SET lock <token> NX PX ttl on all 5 nodes at once (500 ms per node at most)',
    'had when ≥ 3 said OK and validity = ttl − elapsed − (1 % of ttl + 2 ms) > 0; otherwise EVAL redlock-release on the nodes that may hold it, back off 2–50 ms with jitter and try again (until the lock wait runs out: lock_timeout; fewer than 3 nodes answering: lock_unavailable)',
    'GET stock, check, business delay',
    'if the validity has run out: stop, write nothing (lock_lost)',
    'SET stock − n, INSERT the order',
    'EVAL redlock-release on all 5 nodes: DEL only where the value is still <token>',
  ],
  choice: {
    benchLock: 'redlock',
    runsOn: 'five independent Redis masters (no replicas), besides the stock\'s Redis',
    complexity: 'high: a quorum of five, validity from elapsed time and clock drift, release on every node, jittered retries; five servers to run',
    reliability: 'exclusive while a majority (3 of 5) keep their keys and the clocks agree; no fencing token',
    underFault: {
      crash: "The dead holder's keys expire with the TTL on every node; the next majority forms after that.",
      pause: 'A holder paused past its validity between its check and its write writes on while the next holder is inside: oversold (no fencing token).',
      'store-cut': "Cut off past its validity (from the stock's Redis or the nodes), the holder is told by its own timer that the validity ended and writes nothing after (lock_lost); a write already past the check still lands.",
      failover: 'No replication to fail over: the same fault restarts one of the five nodes without its data, one whose loss leaves the holder a majority, and the second order is refused (master-failover preset). But a node restarted without persistence while the holder has only three forgets its grant and a second majority forms: oversold (redlock-node-restart preset; redlock-delayed-restart closes it).',
    },
  },
  scripts: luaScriptsOf(REDLOCK_RELEASE),
};

/** The lab's own RedLock around the Redis stock read-check-write, on the five nodes at REDLOCK_NODES. */
export const redlock = lockedRedisStock(DESCRIPTION, (deps) => lockOnService('redis-nodes', deps, (addresses) => redisNodesLock(addresses, redlockLock)));
