import { createClient, State, type Client } from 'node-zookeeper-client';
import type { ConnectedLock } from '../connected-lock';
import { ZookeeperLock, ZookeeperLockLostError } from './zookeeper-lock';

/**
 * The session every lock of this process lives on. ZooKeeper expires it this long after it last heard
 * from the process (a crash, a pause, a cut): how long a dead holder blocks the line. Short enough for
 * the lab's crash faults, long enough that an overloaded 2-core box still heartbeats in time (every third).
 */
export const ZOOKEEPER_SESSION_MS = 5000;

/**
 * The ZooKeeper lock on the ensemble at `connect` (host:port, comma-separated), one session at a time for
 * the process: node-zookeeper-client starts no new one after an expiry, so the next acquire opens a fresh
 * client (holdings on the old one were told by their signal). An acquire that finds no connection waits
 * for one within its own lock wait, then fails as ZooKeeper unavailable: the client would otherwise queue
 * its requests until it reconnects, for good if it never does. A waiter whose node or session was lost
 * while it waited lost its place in the line: it did not get the lock (null), ZooKeeper did answer.
 */
export function connectZookeeper(connect: string): ConnectedLock {
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
