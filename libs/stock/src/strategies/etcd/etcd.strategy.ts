import type { StrategyDescription } from '@oversell/contracts';
import { EtcdLeaseLostError, EtcdLock, type DistributedLock } from '@oversell/locks';
import { Etcd3 } from 'etcd3';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';
import { FENCED_STOCK_SCRIPTS } from '../../redis/fenced-stock';

const DESCRIPTION: StrategyDescription = {
  name: 'etcd',
  title: 'etcd mutex (lease + revision line)',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'renewed',
  safe: true,
  needs: ['etcd'],
  description:
    "etcd's own mutex recipe (clientv3/concurrency Mutex) on a real etcd: each order grants a lease (the lock TTL rounded up to whole seconds, and at least etcd's minimum TTL: 2 s with its default election settings) that the client keeps alive while it holds, and puts <lock>/<lease id> under it. The key with the lowest create revision holds the lock; every other order waits for the deletion of the key just before its own, so a release wakes one waiter, first come first served. The stock stays in Redis, as for the other locks; the holder's create revision is its fencing token, which the Redis stock checks (a lower one than it has seen is refused).",
  guarantee:
    'At most one holder on one etcd, granted in arrival order, whatever the business time (the lease is kept alive while the holder lives). A dead holder\'s key goes with its lease within one TTL. A stale holder\'s stock write is refused by its fencing token (outcome fenced).',
  pitfall:
    'Each grant is several Raft writes (lease grant, put, then delete and revoke at the release), far slower than one Redis command. A pause longer than the lease (a stop-the-world GC) loses the lease; the holder is told at its next keepalive (lock_lost) or, if its write is already on the way, the stock refuses its revision (fenced). The lease is whole seconds and at least etcd\'s minimum (2 s by default), so a dead holder blocks the line for 2 s or more even with a shorter lock TTL. Each waiter keeps a lease too: on an overloaded machine a waiter whose keepalive is not confirmed within the TTL drops out of the line (lock_timeout).',
  reproduce:
    'Not with the business delay: the keepalive covers it. A stop-the-world pause at stock-read longer than the lease etcd granted (the TTL rounded up, 2 s at least), with no business delay, shows lock_lost or fenced and 0 oversold. Compare its throughput with uuid-lua in npm run bench.',
  symptom:
    'Lock bars never overlap and start in the order the orders arrived; a business delay above the TTL still sells exactly the stock. Throughput sits below the Redis locks: every grant goes through etcd\'s log.',
  steps: [
    'LEASE GRANT ttl (whole seconds), keepalive every ttl/3 while held',
    'TXN: if <lock>/<lease> does not exist, PUT it with the lease; RANGE <lock>/ by create revision, oldest first',
    'if the oldest key is not ours: WATCH the deletion of the key just before ours, look again (until the lock wait runs out, or our lease is lost: out of the line, lock_timeout)',
    'GET stock (refused if a newer revision has been seen), check, business delay',
    'if the lease was lost: stop, write nothing (lock_lost)',
    'SET stock − n with our revision as fencing token, INSERT the order',
    'TXN: DELETE <lock>/<lease> if its create revision is still ours; LEASE REVOKE',
  ],
  choice: {
    benchLock: 'etcd',
    runsOn: 'an etcd (three or five members in production, for Raft)',
    complexity: "low to use (etcd's own mutex recipe and a maintained client), high to run (a Raft cluster)",
    reliability: 'linearizable: a fair queue by create revision, the key bound to a lease kept alive while the holder lives; a stale write is fenced by its revision',
    underFault: {
      crash: "The holder's lease is no longer kept alive: its key goes within the lease TTL (whole seconds) and the next waiter is granted.",
      pause: 'A pause past the lease loses it; the holder learns it at its next keepalive (lock_lost), and a write already on the way is refused by its revision (fenced).',
      'store-cut': 'Cut off from etcd past the lease, the holder loses it and is told (lock_lost); its stale write is fenced.',
      failover: 'A Raft leader change keeps every committed key: no lock is lost while a majority of members lives.',
    },
  },
  scripts: luaScriptsOf(...FENCED_STOCK_SCRIPTS),
};

/**
 * A waiter whose lease ran out (no keepalive confirmed within the TTL: an overloaded process or etcd)
 * lost its key, so its place in the line: it did not get the lock, which is lock_timeout; etcd did answer.
 */
function leaseLostWhileWaitingIsNotHad(lock: EtcdLock): DistributedLock {
  return {
    name: lock.name,
    acquire: (key, options) =>
      lock.acquire(key, options).catch((error: unknown) => {
        if (error instanceof EtcdLeaseLostError) return null;
        throw error;
      }),
  };
}

/** etcd's mutex around the Redis stock read-check-write, on the etcd at ETCD_ENDPOINTS. */
export const etcd = lockedRedisStock(DESCRIPTION, (deps) =>
  lockOnService('etcd', deps, (endpoints) => {
    const client = new Etcd3({ hosts: endpoints.split(',') });
    return { lock: leaseLostWhileWaitingIsNotHad(new EtcdLock(client)), close: () => client.close() };
  }),
);
