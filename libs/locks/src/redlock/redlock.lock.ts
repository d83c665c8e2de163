import type Redis from 'ioredis';
import type { Result } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { preciseNow } from '../clock';
import type { AcquireOptions, DistributedLock, LockHolding, ReleaseResult } from '../distributed-lock';
import { LockError, LockUnavailableError } from '../errors';
import { holdingOf } from '../holding';
import { loadLuaScript, useScripts } from '../lua-script';
import { spin } from '../spin';

export const REDLOCK_RELEASE = loadLuaScript(__dirname, 'redlock-release-1.lua');

declare module 'ioredis' {
  interface RedisCommander<Context> {
    redlockReleaseV1(lockKey: string, token: string): Result<number, Context>;
  }
}

/** redis.io's allowance for the nodes' clocks running at different rates: 1 % of the TTL. */
export const DRIFT_FACTOR = 0.01;
/** Plus 2 ms: Redis expires keys with 1 ms precision, and the elapsed time is measured in whole steps too. */
const DRIFT_FLOOR_MS = 2;

/** The time a holder may count on: the TTL, less what acquiring took and the clocks' drift. */
export const validityMs = (ttlMs: number, elapsedMs: number) => ttlMs - elapsedMs - (Math.floor(ttlMs * DRIFT_FACTOR) + DRIFT_FLOOR_MS);

/** The holding's signal reason: the validity ran out, so a majority of the keys may have expired. */
export class RedlockValidityExpiredError extends LockError {
  constructor(readonly key: string) {
    super(`redlock ${key}: the validity ran out; another client may hold the lock now`);
  }
}

export interface RedlockOptions {
  /** The lock's name in its holdings and events (default 'redlock'). */
  name?: string;
  /**
   * The nodes whose vote counts for a lease of leaseMs (default all): the others are not asked. The
   * quorum stays a majority of all the nodes, so a node left out counts as one that did not answer.
   */
  voters?: (leaseMs: number) => readonly Redis[];
}

interface Attempt {
  /** Nodes whose SET NX answered OK. */
  granted: number;
  /** Nodes that answered at all (OK or "taken") within their timeout. */
  answered: number;
  validityMs: number;
  /** When the validity ends (preciseNow), counted from the attempt's start, not from when its answer was read. */
  validUntil: number;
  errors: unknown[];
  /** Nodes that may hold the caller's key: those that said OK, and those whose answer did not come (their SET may still land). */
  maybeSet: Redis[];
}

/**
 * RedLock as redis.io describes it ("Distributed Locks with Redis"), written out: N independent Redis
 * masters (no replication between them), clients made by connectRedisNodes (a per-node timeout that
 * is short next to the TTL, no queueing for a down node).
 *
 * Acquire: note the monotonic time, `SET key token NX PX ttl` on every node at once, note the time
 * again. The lock is had when a majority (N/2 + 1) answered OK and the validity, ttl − elapsed −
 * drift (1 % of the TTL + 2 ms), is still positive. Otherwise the compare-and-delete
 * (redlock-release-1.lua) is sent to every node that may hold the key: those that said OK and those
 * that did not answer (their SET may have landed after the timeout); and it is tried again after a random backoff until options.waitMs
 * runs out. The holding's leaseMs is the validity, its validUntil the moment the validity ends (a
 * holder checks it with knownLost() before writing), and its signal is raised then too: nothing extends
 * it (no extend(), no watchdog), so the work must fit in it. Release sends the
 * compare-and-delete to every node and says whether a majority still held this holder's token.
 *
 * Guarantees: while every node keeps its keys and the clocks run at about the same rate, two clients
 * never both see a majority within their validity. Survives ⌊(N−1)/2⌋ nodes down (2 of 5). When the
 * last attempt before the wait ran out reached fewer than a majority of nodes at all, acquire throws
 * LockUnavailableError (lock_unavailable) instead of returning null (someone else holds it).
 * Fails (Kleppmann, "How to do distributed locking"): no fencing token, so a holder paused past its
 * validity (GC, a stopped process) between its check and its write writes on while the next holder
 * is inside; safety rests on timing: a node whose clock jumps forward expires the key
 * early. A node restarted without persistence forgets the grants it held: with A on nodes 1, 2, 3,
 * node 3 restarted empty lets B win 3, 4, 5, two holders at once (redis.io's answer: AOF with fsync
 * always, or keep a restarted node out for one TTL). See redlock.int-spec.ts for each.
 */
export function redlock(nodes: readonly Redis[], options: RedlockOptions = {}): DistributedLock {
  for (const node of nodes) useScripts(node, [REDLOCK_RELEASE]);
  const quorum = Math.floor(nodes.length / 2) + 1;

  async function attempt(key: string, token: string, ttlMs: number): Promise<Attempt> {
    const voters = options.voters?.(ttlMs) ?? nodes;
    // The validity counts from before the first SET was sent: a key may have been set from then on.
    const startedAt = preciseNow();
    const started = performance.now();
    const replies = await Promise.allSettled(voters.map((node) => node.set(key, token, 'PX', ttlMs, 'NX')));
    const elapsed = performance.now() - started;
    const outcomes = replies.map((reply) => (reply.status === 'rejected' ? 'no-answer' : reply.value === 'OK' ? 'set' : 'taken'));
    return {
      granted: outcomes.filter((outcome) => outcome === 'set').length,
      answered: outcomes.filter((outcome) => outcome !== 'no-answer').length,
      validityMs: Math.floor(validityMs(ttlMs, elapsed)),
      validUntil: startedAt + elapsed + Math.floor(validityMs(ttlMs, elapsed)),
      errors: replies.flatMap((reply) => (reply.status === 'rejected' ? [reply.reason] : [])),
      maybeSet: voters.filter((_, i) => outcomes[i] !== 'taken'),
    };
  }

  /** The compare-and-delete on `on` (every node by default); how many deleted the caller's lock, how many answered. */
  async function releaseOn(key: string, token: string, on: readonly Redis[] = nodes) {
    const replies = await Promise.allSettled(on.map((node) => node.redlockReleaseV1(key, token)));
    return {
      deleted: replies.filter((reply) => reply.status === 'fulfilled' && reply.value === 1).length,
      answered: replies.filter((reply) => reply.status === 'fulfilled').length,
      errors: replies.flatMap((reply) => (reply.status === 'rejected' ? [reply.reason] : [])),
    };
  }

  return {
    name: options.name ?? 'redlock',
    async acquire(key: string, { waitMs, leaseMs, token = randomUUID() }: AcquireOptions): Promise<LockHolding | null> {
      let last: Attempt | undefined;
      const won = await spin(async () => {
        last = await attempt(key, token, leaseMs);
        if (last.granted >= quorum && last.validityMs > 0) return last;
        // A node that answered "taken" set nothing: skipping it halves the commands of a contended retry.
        await releaseOn(key, token, last.maybeSet);
        return null;
      }, waitMs);
      if (!won) {
        if (last && last.answered < quorum) throw new LockUnavailableError(key, last.answered, quorum, last.errors[0]);
        return null;
      }
      const acquiredAt = preciseNow();
      const lost = new AbortController();
      const expiry = setTimeout(() => lost.abort(new RedlockValidityExpiredError(key)), Math.max(0, won.validUntil - acquiredAt));
      expiry.unref();
      return holdingOf({
        key,
        token,
        acquiredAt,
        leaseMs: won.validityMs,
        signal: lost.signal,
        validUntil: won.validUntil,
        release: async (): Promise<ReleaseResult> => {
          clearTimeout(expiry);
          const { deleted, answered, errors } = await releaseOn(key, token);
          // Keys on the nodes not reached expire with their TTL; what they held cannot be told.
          if (answered < quorum) throw new LockUnavailableError(key, answered, quorum, errors[0]);
          return deleted >= quorum;
        },
      });
    },
  };
}
