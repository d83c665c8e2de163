import { State, type Client } from 'node-zookeeper-client';

/**
 * A signal raised when the client's ZooKeeper session is lost or may be: the server said it expired
 * (learnt only on reconnecting), or the connection dropped. A dropped connection counts as lost, as in
 * Curator's default error policy (SUSPENDED is an error state): while cut off, the client cannot know
 * whether the server has already expired the session and deleted its nodes, and the server does so
 * one session timeout after it last heard from it, whatever the client believes.
 */
export function sessionSignal(client: Client): { signal: AbortSignal; stop(): void } {
  const session = sessionOf(client);
  const controller = new AbortController();
  const onState = (state: State) => {
    if (state === State.EXPIRED) lose(new Error('the ZooKeeper session expired: the server deleted its ephemeral nodes'));
    else if (state === State.DISCONNECTED) lose(new Error('disconnected from ZooKeeper: the session may expire before the client reconnects'));
  };
  const lose = (reason: Error) => {
    stop();
    controller.abort(reason);
  };
  const stop = () => session.listeners.delete(onState);
  session.listeners.add(onState);
  // A session already over is not waited for. A connection that dropped before this point needs no
  // check: no request of the lock's gets an answer until the client is back on the same session.
  if (sessionExpired(client)) onState(State.EXPIRED);
  return { signal: controller.signal, stop };
}

/**
 * Whether the session is over for good (seen since the client's first lock call): node-zookeeper-client
 * starts no new session after an expiry, and answers every later request with CONNECTION_LOSS.
 */
export const sessionExpired = (client: Client) => sessionOf(client).expired || client.getState() === State.EXPIRED;

interface Session {
  /** The client's state moves from EXPIRED on to DISCONNECTED at once: the expiry is remembered here. */
  expired: boolean;
  /** One per holding or waiter: one 'state' listener on the client fans out to all of them. */
  listeners: Set<(state: State) => void>;
}

const sessions = new WeakMap<Client, Session>();

function sessionOf(client: Client): Session {
  let session = sessions.get(client);
  if (!session) {
    const watched: Session = { expired: false, listeners: new Set() };
    client.on('state', (state) => {
      if (state === State.EXPIRED) watched.expired = true;
      for (const listener of [...watched.listeners]) listener(state);
    });
    sessions.set(client, watched);
    session = watched;
  }
  return session;
}
