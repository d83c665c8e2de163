import type { StrategyDescription } from '@oversell/contracts';
import { ZookeeperLock, ZookeeperLockLostError, type DistributedLock } from '@oversell/locks';
import { createClient, State, type Client } from 'node-zookeeper-client';
import { lockedRedisStock } from '../../compose/locked-redis-stock';
import { luaScriptsOf } from '../../compose/scripts-of';
import { lockOnService } from '../../compose/service-lock';
import { FENCED_STOCK_SCRIPTS } from '../../redis/fenced-stock';

/**
 * The session every lock of this process lives on. ZooKeeper expires it this long after it last heard
 * from the process (a crash, a pause, a cut): how long a dead holder blocks the line. Short enough for
 * the lab's crash faults, long enough that an overloaded 2-core box still heartbeats in time (every third).
 */
export const ZOOKEEPER_SESSION_MS = 5000;

const DESCRIPTION: StrategyDescription = {
  name: 'zookeeper',
  title: 'ZooKeeper mutex (ephemeral sequential nodes)',
  kind: 'lock',
  store: 'redis',
  settings: ['businessDelayMs'],
  lease: 'renewed',
  safe: true,
  needs: ['zookeeper'],
  description:
    "Curator's InterProcessMutex recipe on a real ZooKeeper: each order creates an ephemeral sequential node under the product's lock node. The node with the lowest sequence holds the lock; every other order watches only the node just before its own, so a release wakes one waiter, first come first served. The node belongs to the instance's ZooKeeper session, kept alive by the client's heartbeats: the lock has no TTL of its own and lives as long as the session. The stock stays in Redis, as for the other locks; the holder's sequence number is its fencing token, which the Redis stock checks (a lower one than it has seen is refused).",
  guarantee:
    "At most one holder on one ZooKeeper, granted in arrival order, whatever the business time (no per-lock lease to run out). A dead holder's node goes when its session expires (5 s after ZooKeeper last heard from it). A stale holder's stock write is refused by its fencing token (outcome fenced).",
  pitfall:
    "Each grant is a write through ZooKeeper's log (create, then delete), slower than one Redis command. The lock lives as long as the session, not the holder's work: a pause or a cut longer than the session timeout (5 s) expires it and the next waiter gets the lock; the holder learns it when its connection drops or comes back expired (lock_lost), or, if its write is already on the way, the stock refuses its sequence (fenced). A crashed holder blocks the line for the whole session timeout.",
  reproduce:
    'Not with the business delay: the session covers it. A stop-the-world pause longer than 5 s at lock-acquired shows lock_lost or fenced and 0 oversold. Compare its throughput with etcd and uuid-lua in npm run bench.',
  symptom:
    'Lock bars never overlap and start in the order the orders arrived; a business delay of any length still sells exactly the stock. Throughput sits below the Redis locks: every grant goes through ZooKeeper\'s log.',
  steps: [
    'CREATE <lock>/lock-<uuid>- EPHEMERAL_SEQUENTIAL (on the instance\'s session; the lock node is created the first time)',
    'GET CHILDREN <lock>: the lowest sequence holds',
    'if ours is not the lowest: GET DATA with a watch on the node just before ours; when it goes, list again (until the lock wait runs out: delete ours, lock_timeout)',
    'GET stock (refused if a newer sequence has been seen), check, business delay',
    'if the session was lost: stop, write nothing (lock_lost)',
    'SET stock − n with our sequence as fencing token, INSERT the order',
    'DELETE our node',
  ],
  choice: {
    benchLock: 'zookeeper',
    runsOn: 'a ZooKeeper (an ensemble of three or five in production)',
    complexity: "low to use (Curator's recipe: ephemeral sequential nodes, watch the predecessor), high to run (an ensemble)",
    reliability: 'linearizable writes: a fair queue with no herd; the lock lives as long as the session, a stale write is fenced by its sequence',
    underFault: {
      crash: "The holder's ephemeral node goes when its session expires (5 s here): the line waits that long, then the next waiter is granted.",
      pause: 'A pause past the session timeout expires the session and its node: the next waiter enters; the holder learns it (lock_lost) or its write is fenced.',
      'store-cut': 'A cut past the session timeout expires the session: as a pause; a shorter one is ridden out by the session.',
      failover: 'A leader change keeps every committed node: no lock is lost while a quorum lives.',
    },
  },
  scripts: luaScriptsOf(...FENCED_STOCK_SCRIPTS),
};

/**
 * One ZooKeeper session at a time for the process: node-zookeeper-client starts no new one after an
 * expiry, so the next acquire opens a fresh client (holdings on the old one were told by their signal).
 * An acquire that finds no connection waits for one within its own lock wait, then fails as ZooKeeper
 * unavailable: the client would otherwise queue its requests until it reconnects, for good if it never does.
 */
function sessionLock(connect: string): { lock: DistributedLock; close(): void } {
  let session: Session | undefined;
  const current = (): Session => {
    if (!session) {
      const opened = openSession(connect);
      opened.client.once('expired', () => {
        if (session === opened) session = undefined;
        opened.client.close();
      });
      session = opened;
    }
    return session;
  };
  return {
    lock: {
      name: 'zookeeper',
      async acquire(key, options) {
        const { client, connected } = current();
        if (client.getState() !== State.SYNC_CONNECTED) await within(connected(), Math.max(options.waitMs, 1000), `no ZooKeeper session at ${connect}`);
        // A waiter whose node or session was lost while it waited lost its place in the line: not had.
        return new ZookeeperLock(client).acquire(key, options).catch((error: unknown) => {
          if (error instanceof ZookeeperLockLostError) return null;
          throw error;
        });
      },
    },
    close: () => session?.client.close(),
  };
}

interface Session {
  client: Client;
  /** Resolves once the client is connected again (at once when it is): one listener for every waiting order. */
  connected(): Promise<void>;
}

function openSession(connect: string): Session {
  const client = createClient(connect, { sessionTimeout: ZOOKEEPER_SESSION_MS, spinDelay: 200 });
  let reconnected: (() => void) | undefined;
  const awaitConnection = () => new Promise<void>((resolve) => (reconnected = resolve));
  let next = awaitConnection();
  client.on('connected', () => {
    reconnected?.();
    reconnected = undefined;
  });
  // Only once connected: a failed reconnect attempt must not strand the orders already waiting.
  client.on('disconnected', () => {
    if (!reconnected) next = awaitConnection();
  });
  client.connect();
  return { client, connected: () => next };
}

async function within(promise: Promise<void>, ms: number, failure: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${failure} within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Curator's mutex around the Redis stock read-check-write, on the ZooKeeper at ZOOKEEPER_CONNECT. */
export const zookeeper = lockedRedisStock(DESCRIPTION, (deps) => lockOnService('zookeeper', deps, sessionLock));
