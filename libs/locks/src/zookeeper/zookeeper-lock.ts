import { CreateMode, Exception, State, type Client } from 'node-zookeeper-client';
import { randomUUID } from 'node:crypto';
import { preciseNow } from '../clock';
import type { AcquireOptions, DistributedLock, LockHolding } from '../distributed-lock';
import { LockError } from '../errors';
import { holdingOf } from '../holding';
import { sessionExpired, sessionSignal } from './session-signal';
import { failedWith, zk } from './zookeeper-calls';

/** The session was lost, or the waiter's node deleted, while it waited in line: it is out of the line. */
export class ZookeeperLockLostError extends LockError {
  constructor(
    readonly key: string,
    cause: unknown,
  ) {
    super(`zookeeper lock ${key}: the waiter's node or session was lost while waiting`, { cause });
  }
}

/** The release was sent while the connection was down: the node goes when it reaches the server, or with the session. */
export class ZookeeperReleaseUnconfirmedError extends LockError {
  constructor(readonly node: string) {
    super(`zookeeper node ${node}: released while disconnected; it is removed once the client reconnects, or with the session if that expires first`);
  }
}

/** Where the lab's lock nodes live: one persistent node per lock key under it, kept for good. */
export const ZOOKEEPER_LOCK_ROOT = '/oversell-lab/locks';

/** A line node's name: `lock-<uuid>-<10-digit sequence>`; the sequence orders the line. */
const sequenceOf = (name: string) => Number(name.slice(-10));
const inLineOrder = (names: string[]) => names.filter((name) => name.startsWith('lock-')).sort((a, b) => sequenceOf(a) - sequenceOf(b));

/**
 * Curator's InterProcessMutex recipe (LockInternals) on node-zookeeper-client.
 *
 * Each acquire creates an ephemeral sequential node `lock-<uuid>-<sequence>` under the lock's node
 * (`<root>/<key>`, made persistent on first use). The node with the lowest sequence holds the lock; the
 * others form a line in sequence order, each waiter watching only the node just before its own (no
 * herd: a release wakes one waiter), and looking again when it goes, since a waiter before it that gave
 * up leaves a gap without the lock being free. Release deletes the node: true if it was still there.
 * The uuid in the name is Curator's protection: a create whose answer was lost with the connection is
 * found again by it instead of leaving an orphan node that would block the line for the whole session.
 *
 * Guarantees: at most one holder on one ZooKeeper (or ensemble), granted first come first served
 * (arrival = sequence, assigned by the server); the lock lives as long as the client's session, with no
 * lease to renew per lock: a dead holder's node goes when its session expires, one session timeout
 * (the client's, negotiated with the server) after the server last heard from it. The sequence is the
 * fencing token: it grows with every grant of one key (the key's node is never deleted). A waiter that
 * gives up (waitMs) deletes its own node and leaves none.
 * Fails: the holding's signal is raised when the connection drops (the session may expire meanwhile:
 * Curator's default treats SUSPENDED as lost) or the session is reported expired; a holder that ignores
 * it goes on while the next holder is inside, and a paused process learns only after the pause that the
 * server expired it. After an expiry the client is closed for good (node-zookeeper-client starts no new
 * session): acquire and release on it fail until a new client is made. A ZooKeeper out of reach: a
 * waiter already in line is out at once (ZookeeperLockLostError, its node removed once the client is
 * back), an acquire not yet in line waits (requests queue until the client reconnects), and a release
 * throws at once (ZookeeperReleaseUnconfirmedError), its node removed once the client is back.
 */
export class ZookeeperLock implements DistributedLock {
  readonly name = 'zookeeper';

  constructor(
    private readonly client: Client,
    private readonly root = ZOOKEEPER_LOCK_ROOT,
  ) {}

  async acquire(key: string, { waitMs, token = randomUUID() }: AcquireOptions): Promise<LockHolding | null> {
    const deadline = Date.now() + waitMs;
    const dir = `${this.root}/${key}`;
    const lost = sessionSignal(this.client);
    let node: string | undefined;
    let holding: LockHolding | null = null;
    try {
      node = await this.enterLine(key, dir, token, lost.signal);
      if (!(await this.waitForPredecessors(key, dir, node, deadline, lost.signal))) return null;
      const ownNode = node;
      holding = holdingOf({
        key,
        token,
        acquiredAt: preciseNow(),
        leaseMs: this.client.getSessionTimeout(),
        signal: lost.signal,
        fencingToken: sequenceOf(ownNode),
        release: () => this.release(ownNode, lost.stop),
      });
      return holding;
    } finally {
      if (!holding) {
        lost.stop();
        // Not awaited: while the connection is down the remove waits in the client's queue until it is
        // back (or the node goes with the session), and the caller is answered now, as its wait says.
        // Should it fail, the node goes with the session.
        if (node && !sessionExpired(this.client)) void zk<void>((done) => this.client.remove(node!, -1, done)).catch(() => undefined);
      }
    }
  }

  /** Creates this waiter's node (and the lock's node the first time); returns its path. */
  private async enterLine(key: string, dir: string, token: string, lost: AbortSignal): Promise<string> {
    const prefix = `lock-${randomUUID()}-`;
    const create = () => zk<string>((done) => this.client.create(`${dir}/${prefix}`, Buffer.from(token), CreateMode.EPHEMERAL_SEQUENTIAL, done));
    try {
      return await create();
    } catch (error) {
      if (failedWith(error, Exception.NO_NODE)) {
        await zk<string>((done) => this.client.mkdirp(dir, done));
        return create();
      }
      if (!failedWith(error, Exception.CONNECTION_LOSS)) throw error;
      // The create may have been applied before the connection dropped: look for the node by its uuid.
      // The look waits for the client to be back; the caller does not (the lost signal answers it, as a
      // waiter cut off in line is answered), and a node the look finds then is removed.
      const found = zk<string[]>((done) => this.client.getChildren(dir, done)).then((children) => children.find((name) => name.startsWith(prefix)));
      let mine: string | undefined;
      try {
        mine = await unlessLost(key, lost, found);
      } catch (outage) {
        void found.then((orphan) => (orphan ? zk<void>((done) => this.client.remove(`${dir}/${orphan}`, -1, done)) : undefined)).catch(() => undefined);
        throw outage;
      }
      if (mine) return `${dir}/${mine}`;
      throw error;
    }
  }

  /**
   * Waits until this waiter's node is the lowest of the line (internalLockLoop): watches the node just
   * before its own, then looks again. False when the wait ran out first (at once for waitMs 0).
   */
  private async waitForPredecessors(key: string, dir: string, node: string, deadline: number, lost: AbortSignal): Promise<boolean> {
    const name = node.slice(dir.length + 1);
    for (;;) {
      // Raced with the signal: a request sent as the connection drops waits for it to come back.
      const line = inLineOrder(await unlessLost(key, lost, zk<string[]>((done) => this.client.getChildren(dir, done))));
      const place = line.indexOf(name);
      if (place < 0) throw new ZookeeperLockLostError(key, lost.reason ?? new Error(`${node} was deleted`));
      if (place === 0) return true;
      if (Date.now() >= deadline) return false;
      if (!(await this.gone(key, `${dir}/${line[place - 1]}`, deadline, lost))) return false;
    }
  }

  /**
   * Resolves true once `path` changes (deleted, as a line node only ever is) or is already gone, false at
   * the deadline; throws if the session is lost meanwhile. A watch left behind by a timeout fires later
   * into a settled promise: node-zookeeper-client cannot remove a watch.
   */
  private async gone(key: string, path: string, deadline: number, lost: AbortSignal): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    let onLost: (() => void) | undefined;
    try {
      return await new Promise<boolean>((resolve, reject) => {
        // getData, not exists: on a node already gone exists would leave a watch for its creation.
        this.client.getData(
          path,
          () => resolve(true),
          (error) => {
            if (failedWith(error, Exception.NO_NODE)) resolve(true);
            else if (error) reject(outOfLine(key, error));
          },
        );
        timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
        onLost = () => reject(new ZookeeperLockLostError(key, lost.reason));
        if (lost.aborted) onLost();
        else lost.addEventListener('abort', onLost, { once: true });
      });
    } finally {
      clearTimeout(timer);
      if (onLost) lost.removeEventListener('abort', onLost);
    }
  }

  private async release(node: string, stopWatchingSession: () => void): Promise<boolean> {
    stopWatchingSession();
    // An expired session took the node with it, and the client answers nothing more.
    if (sessionExpired(this.client)) return false;
    const removed = zk<void>((done) => this.client.remove(node, -1, done));
    if (!connected(this.client)) {
      // Queued until the client reconnects, for as long as the outage lasts: the holder is not kept
      // waiting for it (an order's answer would be), and is told the release is not confirmed.
      removed.catch(() => undefined);
      throw new ZookeeperReleaseUnconfirmedError(node);
    }
    try {
      await removed;
      return true;
    } catch (error) {
      if (failedWith(error, Exception.NO_NODE) || failedWith(error, Exception.SESSION_EXPIRED)) return false;
      throw error;
    }
  }
}

/** Whether requests are answered now, rather than queued until the client reconnects. */
const connected = (client: Client) => [State.SYNC_CONNECTED, State.CONNECTED_READ_ONLY].includes(client.getState());

/** The request's answer, or ZookeeperLockLostError as soon as the waiter's session signal fires. */
function unlessLost<T>(key: string, lost: AbortSignal, request: Promise<T>): Promise<T> {
  if (lost.aborted) {
    request.catch(() => undefined);
    return Promise.reject(new ZookeeperLockLostError(key, lost.reason));
  }
  let onLost: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onLost = () => reject(new ZookeeperLockLostError(key, lost.reason));
    lost.addEventListener('abort', onLost, { once: true });
  });
  return Promise.race([request.catch((error: unknown) => Promise.reject(outOfLine(key, error))), aborted]).finally(() => {
    lost.removeEventListener('abort', onLost!);
    request.catch(() => undefined);
  });
}

/**
 * A request of a waiter in line that failed with the connection (sent as it dropped: the client fails
 * it before it reports the disconnection) puts the waiter out of the line, as the lost signal does.
 */
function outOfLine(key: string, error: unknown): unknown {
  return failedWith(error, Exception.CONNECTION_LOSS) ? new ZookeeperLockLostError(key, error) : error;
}
