import { createClient, type Client, type Option } from 'node-zookeeper-client';
import { once } from 'node:events';
import { startLockServer } from '../lock-server';

/**
 * A standalone ZooKeeper of the project's (infra/scripts/ensure-zookeeper.sh: installs Debian's
 * zookeeper the first time), stopped once this process exits, however it ends; ZOOKEEPER_CONNECT, when
 * set, is used instead. Sets ZOOKEEPER_CONNECT so processes started after it find the same server.
 * Returns the connect string.
 */
export function startZookeeper(): string {
  return startLockServer('zookeeper', 'ZOOKEEPER_CONNECT');
}

/** The connect string of the ZooKeeper the locks' jest global setup started (startZookeeper). */
export function testZookeeperConnect(): string {
  const connect = process.env.ZOOKEEPER_CONNECT;
  if (!connect) throw new Error('ZOOKEEPER_CONNECT is not set: the locks jest config starts ZooKeeper in its globalSetup (startZookeeper)');
  return connect;
}

/**
 * A client of the test ZooKeeper (or of `connect`, e.g. a proxy in front of it) with a session of its
 * own, connected. A short session (the server allows 400 ms and more) makes a dead client's nodes go quickly.
 */
export async function testZookeeperClient(options: Partial<Option> & { sessionId?: Buffer; sessionPassword?: Buffer } = {}, connect = testZookeeperConnect()): Promise<Client> {
  const client = createClient(connect, { sessionTimeout: 2000, spinDelay: 100, ...options } as Partial<Option>);
  const connected = once(client, 'connected');
  client.connect();
  await connected;
  return client;
}

/**
 * Expires the client's session from outside, as Curator's tests do (KillSession): a second client joins
 * the same session and closes it. The server deletes the session's ephemeral nodes; the first client
 * is cut off and, reconnecting, told its session expired.
 * The first client reconnects at once and can take its session back before the second one's close
 * reaches the server; that close is then lost with the second client's connection. So this joins and
 * closes again until joining is refused as expired: the server's word that the session is over.
 */
export async function expireSession(client: Client): Promise<void> {
  const session = { sessionId: client.getSessionId(), sessionPassword: client.getSessionPassword(), sessionTimeout: client.getSessionTimeout() };
  for (;;) {
    const intruder = createClient(testZookeeperConnect(), { spinDelay: 100, ...session } as Partial<Option>);
    const joined = await new Promise<boolean>((resolve) => {
      intruder.once('connected', () => resolve(true));
      intruder.once('expired', () => resolve(false));
      intruder.connect();
    });
    const closed = once(intruder, 'disconnected');
    intruder.close();
    if (!joined) return;
    await closed;
  }
}
