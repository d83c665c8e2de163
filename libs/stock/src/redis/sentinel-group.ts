import type { RedisOptions } from 'ioredis';
import { onServer, parseAddress, pollFor, type Address } from './one-shot';

/** The master's name in the lab's Sentinels' config (infra/scripts/ensure-redis-sentinel.sh, docker-compose). */
export const DEFAULT_SENTINEL_MASTER = 'lab-master';

/** How long a group may take to be whole (master, replica, every Sentinel agreeing) or to fail over. */
const GROUP_WAIT_MS = 30_000;
/** How often a client of the group's master reconnects while it is gone. */
const RECONNECT_MS = 100;

/**
 * ioredis options for a client of the group's master, found through its Sentinels (`host:port,…`).
 * Reconnects every 100 ms rather than backing off: a lock client then finds the promoted master within
 * 100 ms of the Sentinels naming it, not after a back-off grown over the seconds of the failover.
 */
export function sentinelOptions(sentinels: string, name = DEFAULT_SENTINEL_MASTER): RedisOptions {
  return { sentinels: sentinels.split(',').map(parseAddress), name, retryStrategy: () => RECONNECT_MS };
}

/** "name value name value …" as Sentinel answers SENTINEL replicas, one object per replica. */
function fields(reply: unknown): Record<string, string> {
  const flat = reply as string[];
  return Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]));
}

/**
 * The failover fault's hands on a Sentinel group (a master, one replica, Sentinels), over plain
 * connections to each member: hold the replica back, then fail the master over.
 *
 * Redis replicates asynchronously; the articles' pitfall is a master that dies before a lock key it
 * granted reached the replica. `holdReplica` makes that gap certain rather than hoped for: CLIENT PAUSE
 * WRITE on the replica, which keeps reading its master's replication stream but applies none of it
 * (the Sentinels meanwhile see it as down: their hello PUBLISH waits behind the pause). `failOver` then
 * SHUTDOWNs the master (NOW: without waiting for the replica to catch up), waits for the replica to
 * see its link drop — which discards what it had read and not applied — lifts the pause, so the
 * Sentinels see the replica up again and promote it, and returns once the promoted master serves.
 */
export class SentinelGroup {
  private readonly sentinels: Address[];

  constructor(
    sentinels: string,
    private readonly name = DEFAULT_SENTINEL_MASTER,
  ) {
    this.sentinels = sentinels.split(',').map(parseAddress);
  }

  /**
   * Waits until the group is whole — every Sentinel names the same master and sees its one replica up,
   * and the replica's link to it is up (after a failover, the old master comes back as that replica:
   * ensure-redis-sentinel.sh) — then holds the replica back for `holdMs`. Returns the replica's address.
   */
  async holdReplica(holdMs: number): Promise<string> {
    const replica = await pollFor('the Sentinel group to be whole (a master and its replica, seen by every Sentinel)', GROUP_WAIT_MS, () => this.wholeReplica());
    await onServer(replica, (redis) => redis.call('CLIENT', 'PAUSE', String(holdMs), 'WRITE'));
    return `${replica.host}:${replica.port}`;
  }

  /** Shuts the master down, lets the replica go, and resolves with the promoted master's address once it serves. */
  async failOver(): Promise<{ from: string; to: string }> {
    const master = await this.masterAddress(this.sentinels[0]);
    // Held back, it is seen as down: any replica the Sentinel knows.
    const replica = await this.replicaOf(this.sentinels[0], false);
    if (!master || !replica) throw new Error(`the Sentinel group ${this.name} has no master and replica to fail over`);
    await onServer(master, (redis) => redis.call('SHUTDOWN', 'NOSAVE', 'NOW')).catch(() => undefined);
    await pollFor(`the replica ${replica.host}:${replica.port} to lose its master`, GROUP_WAIT_MS, () =>
      onServer(replica, async (redis) => (/master_link_status:down/.test(await redis.info('replication')) ? true : null)),
    );
    await onServer(replica, (redis) => redis.call('CLIENT', 'UNPAUSE'));
    const promoted = await pollFor(`the Sentinels to promote ${replica.host}:${replica.port}`, GROUP_WAIT_MS, async () => {
      const named = await this.masterAddress(this.sentinels[0]);
      return named && named.port !== master.port && (await onServer(named, async (redis) => ((await redis.call('ROLE')) as string[])[0] === 'master')) ? named : null;
    });
    return { from: `${master.host}:${master.port}`, to: `${promoted.host}:${promoted.port}` };
  }

  private async wholeReplica(): Promise<Address | null> {
    const masters = await Promise.all(this.sentinels.map((sentinel) => this.masterAddress(sentinel)));
    if (masters.some((m) => !m || m.port !== masters[0]!.port || m.host !== masters[0]!.host)) return null;
    const replicas = await Promise.all(this.sentinels.map((sentinel) => this.replicaOf(sentinel, true)));
    if (replicas.some((r) => !r)) return null;
    const replica = replicas[0]!;
    const linked = await onServer(replica, async (redis) => /master_link_status:up/.test(await redis.info('replication')));
    return linked ? replica : null;
  }

  /** The one replica this Sentinel knows; with `up`, only if it sees it up (flags exactly "slave": not down, not disconnected). */
  private async replicaOf(sentinel: Address, up: boolean): Promise<Address | null> {
    const replies = (await onServer(sentinel, (redis) => redis.call('SENTINEL', 'REPLICAS', this.name)).catch(() => [])) as unknown[];
    const known = replies.map(fields).filter((replica) => !up || replica.flags === 'slave');
    return known.length === 1 ? { host: known[0].ip, port: Number(known[0].port) } : null;
  }

  private async masterAddress(sentinel: Address): Promise<Address | null> {
    const reply = (await onServer(sentinel, (redis) => redis.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.name)).catch(() => null)) as [string, string] | null;
    return reply ? { host: reply[0], port: Number(reply[1]) } : null;
  }
}
