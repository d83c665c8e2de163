import { randomBytes } from 'node:crypto';
import { clearLabKeys, labRedis } from './lab-keys';

/** How long a session's claim on its prefix outlives its last renewal: a session killed outright lets go after this. */
const LEASE_MS = 30_000;
const RENEW_EVERY_MS = 10_000;

const leaseKey = (prefix: string) => `${prefix}:session`;
/** The lab prefix a key belongs to (a prefix holds no ':', throwawayPrefix checks). */
const prefixOf = (key: string) => key.slice(0, key.indexOf(':'));

export interface SessionKeys {
  /** The lab's REDIS_KEY_PREFIX: `<command prefix>-<6 hex digits>`. */
  prefix: string;
  /** Lets go of the prefix (after the lab has cleared its keys). */
  release(): Promise<void>;
}

/**
 * A key prefix of its own for one session of a command (bench, pitfalls, soak), so two sessions never
 * touch each other's keys, held by a lease (`<prefix>:session`) that the session's process renews
 * while it runs. A session that stops clears its own keys; one killed outright (SIGKILL, an OOM kill,
 * a second Ctrl-C) cannot, so each new session first clears the keys of the command's earlier
 * sessions whose lease has run out: stale keys slow every product reset (lab-keys.ts).
 */
export async function claimSessionKeys(env: NodeJS.ProcessEnv, commandPrefix: string, log: (line: string) => void): Promise<SessionKeys> {
  const prefix = `${commandPrefix}-${randomBytes(3).toString('hex')}`;
  const redis = labRedis(env);
  const renew = () => redis.set(leaseKey(prefix), String(process.pid), 'PX', LEASE_MS);
  let renewal: NodeJS.Timeout | undefined;
  try {
    await redis.connect();
    await renew();
    // A renewal that fails (Redis restarting) is retried at the next one; the lease outlives two misses.
    renewal = setInterval(() => void renew().catch(() => undefined), RENEW_EVERY_MS);
    renewal.unref();
    const earlier = new Set<string>();
    // Only prefixes this function makes (6 hex digits): a lab given a prefix by hand has no lease to look at.
    for await (const keys of redis.scanStream({ match: `${commandPrefix}-${'[0-9a-f]'.repeat(6)}:*`, count: 5000 }) as AsyncIterable<string[]>) {
      for (const key of keys) earlier.add(prefixOf(key));
    }
    earlier.delete(prefix);
    for (const other of earlier) {
      if (await redis.exists(leaseKey(other))) continue;
      // Their keys cost later resets time, not this session its figures: a failure is said, not fatal.
      await clearLabKeys(env, other).then(
        (cleared) => log(`cleared ${cleared} Redis keys left by an earlier session that did not stop (${other}:*)`),
        (error: Error) => log(`could not clear the keys an earlier session left (${other}:*): ${error.message}`),
      );
    }
  } catch (error) {
    clearInterval(renewal);
    redis.disconnect();
    throw error;
  }
  return {
    prefix,
    async release() {
      clearInterval(renewal);
      try {
        await redis.del(leaseKey(prefix));
      } finally {
        redis.disconnect();
      }
    },
  };
}
