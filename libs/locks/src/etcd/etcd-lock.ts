import type { Etcd3, Lease } from 'etcd3';
import { randomUUID } from 'node:crypto';
import { preciseNow } from '../clock';
import type { AcquireOptions, DistributedLock, LockHolding } from '../distributed-lock';
import { LockError } from '../errors';
import { holdingOf } from '../holding';
import { leaseSignal } from './lease-signal';

/** The lease was lost while its key waited in line: etcd deleted the key, so it is out of the line. */
export class EtcdLeaseLostError extends LockError {
  constructor(
    readonly key: string,
    cause: unknown,
  ) {
    super(`etcd lock ${key}: the lease was lost while waiting`, { cause });
  }
}

/** etcd leases live whole seconds; rounded up, so the lease is never shorter than asked. */
export const leaseTtlSeconds = (leaseMs: number) => Math.max(1, Math.ceil(leaseMs / 1000));

/**
 * etcd's own mutex recipe (clientv3/concurrency Mutex) on the etcd3 client.
 *
 * Each acquire grants a lease, kept alive by the client while it is held, and puts `<key>/<lease id
 * in hex>` under it in one transaction with a read of the prefix's oldest key. The key with the
 * lowest create revision holds the lock; the others form a line in create-revision order, each waiter
 * watching only the deletion of the key just before its own (no herd: a release wakes one waiter).
 * Release deletes the key if it still exists with its create revision (that answer is what release
 * returns), then revokes the lease.
 *
 * Guarantees: at most one holder on one etcd, granted first come first served (arrival = create
 * revision); a dead holder's key goes with its lease within one TTL (leaseMs rounded up to whole
 * seconds, etcd's own minimum, 2 s by default, may be longer); the create revision is a fencing token
 * that grows with every grant. A waiter that gives up (waitMs) revokes its lease and leaves no key.
 * Fails: the holding's signal is raised when etcd reports the lease expired or revoked (seen at the
 * next keepalive, a third of the TTL) or when no keepalive has been confirmed for one TTL (cut off
 * from etcd, a paused process); a holder that ignores the signal goes on while the next holder is
 * inside. A pause longer than the TTL is only noticed after it, as with every lease. An etcd that
 * cannot be reached makes acquire and release throw (the etcd3 client retries first).
 */
export class EtcdLock implements DistributedLock {
  readonly name = 'etcd';

  constructor(private readonly client: Etcd3) {}

  async acquire(key: string, { waitMs, leaseMs, token = randomUUID() }: AcquireOptions): Promise<LockHolding | null> {
    const deadline = Date.now() + waitMs;
    const ttlSeconds = leaseTtlSeconds(leaseMs);
    const lease = this.client.lease(ttlSeconds);
    const lost = leaseSignal(lease, ttlSeconds * 1000);
    let holding: LockHolding | null = null;
    try {
      const leaseId = await lease.grant();
      const prefix = `${key}/`;
      const myKey = prefix + BigInt(leaseId).toString(16);
      // Put and read the oldest key in one round trip: the lock is had at once when they are the same.
      const created = await this.client
        .if(myKey, 'Create', '==', 0)
        .then(this.client.put(myKey).value(token).lease(leaseId), this.client.getAll().prefix(prefix).sort('Create', 'Ascend').limit(1))
        .commit();
      const myRevision = created.header.revision;
      const oldest = created.responses[1].response_range.kvs[0];
      const first = oldest?.create_revision === myRevision || (waitMs > 0 && (await this.waitForPredecessors(key, prefix, myKey, myRevision, deadline, lost.signal)));
      if (!first) return null;
      holding = holdingOf({
        key,
        token,
        acquiredAt: preciseNow(),
        leaseMs: ttlSeconds * 1000,
        signal: lost.signal,
        fencingToken: Number(myRevision),
        release: () => this.release(myKey, myRevision, lease, lost.stop),
      });
      return holding;
    } finally {
      if (!holding) {
        lost.stop();
        // Revoking the lease deletes the waiter's key with it; should etcd be unreachable, the key
        // goes when the lease runs out (its keepalive stops here either way).
        await lease.revoke().catch(() => undefined);
      }
    }
  }

  /**
   * Waits until no key older than this waiter's is left (Mutex's waitDeletes): watches the youngest
   * older key's deletion, then looks again, since an older waiter that gave up leaves a gap without
   * the lock being free. Each look also checks this waiter's own key still exists: a lease lost while
   * waiting took the key out of the line. False when the wait ran out first.
   */
  private async waitForPredecessors(key: string, prefix: string, myKey: string, myRevision: string, deadline: number, lost: AbortSignal): Promise<boolean> {
    for (;;) {
      const look = await this.client
        .if(myKey, 'Create', '==', myRevision)
        .then(this.client.getAll().prefix(prefix).maxCreateRevision(String(BigInt(myRevision) - 1n)).sort('Create', 'Descend').limit(1))
        .commit();
      if (!look.succeeded) throw new EtcdLeaseLostError(key, lost.reason);
      const predecessor = look.responses[0].response_range.kvs[0];
      if (!predecessor) return true;
      if (!(await this.deleted(predecessor.key, look.header.revision, deadline, lost))) return false;
    }
  }

  /** Resolves true once `key` is deleted after `revision`, false at the deadline; throws if the lease is lost. */
  private async deleted(key: Buffer, revision: string, deadline: number, lost: AbortSignal): Promise<boolean> {
    // only('delete'), never ignore('put'): etcd3's ignore() is only() under another name, and would
    // leave the puts alone and drop the very deletion waited for.
    const watcher = await this.client.watch().key(key).startRevision(String(BigInt(revision) + 1n)).only('delete').create();
    let timer: NodeJS.Timeout | undefined;
    let onLost: (() => void) | undefined;
    try {
      return await new Promise<boolean>((resolve, reject) => {
        watcher.on('delete', () => resolve(true));
        watcher.on('error', reject);
        timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
        onLost = () => reject(new EtcdLeaseLostError(key.toString(), lost.reason));
        if (lost.aborted) onLost();
        else lost.addEventListener('abort', onLost, { once: true });
      });
    } finally {
      clearTimeout(timer);
      if (onLost) lost.removeEventListener('abort', onLost);
      await watcher.cancel();
    }
  }

  private async release(myKey: string, myRevision: string, lease: Lease, stopWatchingLease: () => void): Promise<boolean> {
    stopWatchingLease();
    try {
      // Deleting first, and only the key this holding created, is what tells whether it still held the lock.
      const deleted = await this.client.if(myKey, 'Create', '==', myRevision).then(this.client.delete().key(myKey)).commit();
      return deleted.succeeded;
    } finally {
      // The key is already gone or its fate is in the error above; an unrevoked lease only runs out.
      await lease.revoke().catch(() => undefined);
    }
  }
}
