import type { StrategyDescription } from '@oversell/contracts';
import { redlockLib as redlockLibLock } from '@oversell/locks';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { QUORUM_LOCK_TRAITS, redisNodesLock } from '../../compose/redis-nodes-lock';
import { lockOnService } from '../../compose/service-lock';

const DESCRIPTION: StrategyDescription = {
  name: 'redlock-lib',
  title: 'RedLock on 5 Redis nodes (@sesamecare-oss/redlock)',
  ...QUORUM_LOCK_TRAITS,
  description:
    "The same RedLock through npm's maintained library, @sesamecare-oss/redlock (node-redlock for ioredis 5), with its defaults: the reference for the lab's own redlock, on the same five nodes (REDLOCK_NODES). Each attempt runs a Lua script on every node that sets the key unless it exists, and is decided as soon as a majority voted either way; a failed attempt keeps the keys it set and tries again with the same value after 200 ± 100 ms (it releases them only when it gives up), and the script refuses a node that holds the key, its own leftover key included. A release is sent once (the library's default retries a release 10 times). The library names the holder itself (random bytes). The stock stays in the lab's Redis, as for the other locks.",
  guarantee:
    'As redlock: at most one holder while a majority of the five nodes keep their keys and their clocks agree; survives 2 of 5 nodes down; with 3 of 5 down orders are refused with 503 lock_unavailable and nothing is taken. A holder past its expiration writes nothing (lock_lost).',
  pitfall:
    "Built for locks that are rarely contended: once waiters split the votes, each keeps the keys it won while it retries, and no node holding a key grants it again, its own holder's retry included, so no one can reach a majority until those keys expire (up to one TTL). A hot key is handed over about once per TTL (grant rate slow) and most orders of a flash sale give up (lock_timeout). It computes the expiration but does not refuse a grant whose acquire took longer than it (the holder is then told at once: lock_lost). Otherwise RedLock's own: no fencing token, timing assumptions, a node restarted empty forgets its grants.",
  reproduce:
    'Any contended run: compare its sold/s and lock_timeout count with redlock on the same nodes in npm run bench. Stop 3 of the 5 nodes (infra/scripts/ensure-redis-nodes.sh stop-node <address>): orders answer lock_unavailable; with 2 stopped they still sell.',
  symptom:
    'Lock bars never overlap, with gaps of up to a TTL between them under contention: a split vote blocks the key until the keys it left expire. Throughput far below redlock on the same nodes, and many lock_timeout answers.',
  steps: [
    "EVAL (the library's) on all 5 nodes: SET lock <value> PX ttl unless it exists; decided once a majority voted",
    'had with ≥ 3 votes; otherwise keep what was set and retry with the same value after 200 ± 100 ms (a node holding the key, ours included, refuses); giving up when the lock wait runs out, release what was set once (lock_timeout; fewer than 3 nodes answering: lock_unavailable)',
    'GET stock, check, business delay',
    'if the expiration has passed: stop, write nothing (lock_lost)',
    'SET stock − n, INSERT the order',
    "EVAL (the library's) on all 5 nodes, once: DEL only where the value is still ours",
  ],
  choice: {
    benchLock: 'redlock-lib',
    runsOn: "five independent Redis masters (no replicas), besides the stock's Redis; one npm package",
    complexity: 'low to write (a maintained library), high to run: five servers, and the same timing assumptions as redlock',
    reliability: 'as redlock: exclusive while a majority (3 of 5) keep their keys and the clocks agree; no fencing token; hands a hot key over about once per TTL once waiters split the votes',
    underFault: {
      crash: "The dead holder's keys expire with the TTL on every node; the next majority forms after that, at the next 200 ± 100 ms retry.",
      pause: 'A holder paused past its expiration between its check and its write writes on while the next holder is inside: oversold (no fencing token).',
      'store-cut': "Cut off past its expiration, the holder is told by its own timer that the lock ended and writes nothing after (lock_lost); a write already past the check still lands.",
      failover: 'No replication to fail over: one node of five lost leaves a second client two votes at most, no majority, refused. A node restarted without persistence forgets its grants and a second majority can form.',
    },
  },
  scripts: [],
};

/** @sesamecare-oss/redlock around the Redis stock read-check-write, on the five nodes at REDLOCK_NODES. */
export const redlockLib = lockedRedisStock(DESCRIPTION, (deps) => lockOnService('redis-nodes', deps, (addresses) => redisNodesLock(addresses, redlockLibLock)));
