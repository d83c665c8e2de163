import type { StrategyDescription } from '@oversell/contracts';
import { REDLOCK_RELEASE, redlockDelayedRestart as redlockDelayedRestartLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { QUORUM_LOCK_TRAITS, redisNodesLock } from '../../compose/redis-nodes-lock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';

const DESCRIPTION: StrategyDescription = {
  name: 'redlock-delayed-restart',
  title: 'RedLock whose restarted nodes sit out one lease',
  ...QUORUM_LOCK_TRAITS,
  description:
    "The lab's redlock with redis.io's answer to a node restarted without persistence, \"delayed restarts\", kept by the clients: each order's process reads every node's uptime (INFO server) whenever it connects to it, and asks a node for a lease of lockTtlMs only once that node has been up that long. A node that restarted may have forgotten a grant it held; until every lease it could have held has run out, it does not vote, so a second majority cannot form on it. The quorum stays 3 of the 5.",
  guarantee:
    "As redlock, and also while a node restarts without its data: the restarted node is asked nothing for one lease, so a holder's grant on the others still blocks a second majority (redlock-node-restart preset). Refused with 503 lock_unavailable when fewer than 3 nodes can vote, e.g. in the first lease after the nodes started.",
  pitfall:
    "Safe only while every client of the key follows the rule and no client asks a longer lease of it than the others (the node sits out the lease asked, not the longest it held). Its cost is availability: for one lease after a restart the lock has a voter less, and a lab whose nodes just started grants nothing for the first lease. RedLock's own pitfalls stay: no fencing token, timing assumptions, a slow hand-over under contention.",
  reproduce:
    'npm run pitfalls -- --preset redlock-node-restart: under the same node restart redlock grants the lock twice and sells the one unit twice; this strategy refuses the second order until the holder is done.',
  symptom:
    'Lock bars never overlap, also across a node restart; orders right after the restart wait (or end lock_timeout) instead of overlapping the holder.',
  steps: [
    "on (re)connecting to a node: INFO server → the node's uptime; it votes for a lease of ttl once it has been up ttl ms",
    'SET lock <token> NX PX ttl on the nodes that vote (500 ms per node at most)',
    'had when ≥ 3 of the 5 said OK and validity = ttl − elapsed − (1 % of ttl + 2 ms) > 0; otherwise EVAL redlock-release where it may have set, back off and try again (fewer than 3 nodes answering: lock_unavailable)',
    'GET stock, check, business delay',
    'if the validity has run out: stop, write nothing (lock_lost)',
    'SET stock − n, INSERT the order',
    'EVAL redlock-release on all 5 nodes: DEL only where the value is still <token>',
  ],
  scripts: luaScriptsOf(REDLOCK_RELEASE),
};

/** redlock whose restarted nodes sit out one lease, around the Redis stock read-check-write, on the nodes at REDLOCK_NODES. */
export const redlockDelayedRestart = lockedRedisStock(DESCRIPTION, (deps) =>
  lockOnService('redis-nodes', deps, (addresses) => redisNodesLock(addresses, redlockDelayedRestartLock)),
);
