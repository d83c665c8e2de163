import type Redis from 'ioredis';
import type { DistributedLock } from '../distributed-lock';
import { uptimeSeconds } from '../redis-nodes';
import { redlock } from './redlock.lock';

/**
 * RedLock with redis.io's answer to a node restarted without persistence ("delayed restarts"): a node
 * that restarted may have forgotten grants it held, so it must not vote again until every lease it could
 * have held has run out. Kept here by the clients instead of by the operators: each client learns every
 * node's start from its uptime (INFO server) when it connects, and asks a node for a lease of L ms only
 * once that node has been up for L ms. A restart always drops the client's connection, so a node is
 * unknown (asked nothing) from the drop until its uptime is read on the new one.
 *
 * The cost: for one lease after a node starts, the lock has one voter less (2 of 5 restarted at once
 * and a third down leave no majority: lock_unavailable); a lab whose nodes just started grants nothing
 * for the first lease. Holds only while every client of the key follows the same rule, and only for
 * leases no longer than the ones asked of it (a node up 5 s votes for a 3 s lease though it may have
 * held a 30 s one from a client asking longer leases of the same key).
 */
export function redlockDelayedRestart(nodes: readonly Redis[]): DistributedLock {
  // performance.now() at which each node's process started, as far as this client knows; null: unknown.
  const startedAt: (number | null)[] = nodes.map(() => null);
  const learning = new Set<number>();
  const learn = async (i: number) => {
    if (learning.has(i)) return;
    learning.add(i);
    try {
      const uptimeSec = uptimeSeconds(await nodes[i].info('server'));
      // Whole seconds, rounded down: the start is taken as late as it can be, never too early.
      if (uptimeSec !== null && nodes[i].status === 'ready') startedAt[i] = performance.now() - uptimeSec * 1000;
    } catch {
      // Not known: the node is asked nothing until a later vote learns it (below).
    } finally {
      learning.delete(i);
    }
  };
  nodes.forEach((node, i) => {
    node.on('close', () => (startedAt[i] = null));
    node.on('ready', () => void learn(i));
  });
  // The nodes connected now are learned before the first acquire, which would otherwise find no voter.
  const learned = Promise.all(nodes.map((node, i) => (node.status === 'ready' ? learn(i) : undefined)));
  const votes = (i: number, leaseMs: number) => {
    // A read that failed (a timeout) or met a reconnect is tried again, so a live node does not stay out for good.
    if (startedAt[i] === null && nodes[i].status === 'ready') void learn(i);
    return startedAt[i] !== null && performance.now() - startedAt[i]! >= leaseMs;
  };
  const lock = redlock(nodes, { name: 'redlock-delayed-restart', voters: (leaseMs) => nodes.filter((_, i) => votes(i, leaseMs)) });
  return {
    name: lock.name,
    acquire: async (key, options) => {
      await learned;
      return lock.acquire(key, options);
    },
  };
}
