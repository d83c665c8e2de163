import { uptimeSeconds } from '@oversell/locks';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onServer, parseAddress, pollFor, type Address } from './one-shot';

/** The value of the stranger's grants: a client that died part-way through its acquire. */
export const STRANGER = 'node-restart-fault:stranger';
/** How long setting up and restarting may take: a node restart itself takes milliseconds. */
const WAIT_MS = 30_000;

const uptimeSec = async (node: Address) => onServer(node, async (redis) => uptimeSeconds(await redis.info('server')) ?? -1);
const runIdOf = (node: Address) => onServer(node, async (redis) => /^run_id:(\w+)/m.exec(await redis.info('server'))?.[1] ?? null);

/**
 * The node-restart fault's hands on the RedLock nodes (REDLOCK_NODES): Kleppmann's sequence made certain
 * rather than hoped for. `prepare` (at the run's reset) puts a stranger's grant of the run's lock key on
 * the last two nodes, as a client that died part-way through its acquire leaves one: the first holder
 * then wins exactly the other three. `restartAHolder` (at the fault point) ends the stranger's grants and
 * restarts one of the holder's nodes without its data: DEBUG CRASH-AND-RECOVER re-executes the server
 * process, which keeps nothing when it has no persistence (the lab's nodes run with --enable-debug-command
 * local for it). The holder is left with two of five nodes, the other three are free. `jumpAClock` (the
 * clock-jump fault, set up by the same `prepare`) ends the stranger's grants and steps the first node's
 * wall clock forward instead: that node runs under libfaketime with its clock offset in <its dir>/faketime
 * (infra/scripts/ensure-redis-nodes.sh), and expires the holder's grant by its own, jumped clock.
 */
export class RedlockNodeRestart {
  private readonly nodes: Address[];

  constructor(addresses: string) {
    this.nodes = addresses.split(',').map(parseAddress);
  }

  /**
   * Waits until every node has been up for the lease and a second (a node the previous run restarted
   * sits out one lease for clients that delay restarts, and they learn its start up to a second late:
   * the first holder must find all five voting), then puts the stranger's grants on the last two.
   */
  async prepare(lockKey: string, leaseMs: number, holdMs: number): Promise<void> {
    const upForSec = Math.ceil(leaseMs / 1000) + 1;
    await pollFor(`every RedLock node to have been up ${upForSec} s`, WAIT_MS, async () => (await Promise.all(this.nodes.map(uptimeSec))).every((up) => up >= upForSec));
    await Promise.all(this.nodes.slice(-2).map((node) => onServer(node, (redis) => redis.set(lockKey, STRANGER, 'PX', holdMs))));
  }

  /** The nodes holding the key for someone but the stranger; a node that does not answer holds nothing here. */
  private async holders(lockKey: string): Promise<{ node: Address; value: string }[]> {
    const values = await Promise.all(this.nodes.map((node) => onServer(node, (redis) => redis.get(lockKey)).catch(() => null)));
    return this.nodes.flatMap((node, i) => (values[i] !== null && values[i] !== STRANGER ? [{ node, value: values[i]! }] : []));
  }

  private async endStrangersGrants(lockKey: string): Promise<void> {
    await Promise.all(
      this.nodes.map((node) => onServer(node, (redis) => redis.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, lockKey, STRANGER)).catch(() => 0)),
    );
  }

  /** Ends the stranger's grants and restarts one node holding the key for someone else; resolves with its address once it serves again, empty. */
  async restartAHolder(lockKey: string): Promise<string> {
    const holders = await this.holders(lockKey);
    if (!holders.length) throw new Error(`node-restart: no RedLock node holds ${lockKey} for anyone but the stranger`);
    await this.endStrangersGrants(lockKey);
    return this.restartEmpty(holders.at(-1)!, lockKey);
  }

  /**
   * Ends the stranger's grants and steps the first node's wall clock forward by `offsetMs` (its libfaketime
   * file rewritten, by rename so the node never reads half of it); resolves with its address once its TIME
   * reads the jumped clock. The first holder won the first three nodes (the stranger has the last two), so
   * a lock on these nodes is held there; its grant is then past its expiry on that node's clock, which the
   * node checks on access and in its active expire cycle. A lock elsewhere (the fix side) holds nothing
   * here: the node's clock jumps all the same.
   */
  async jumpAClock(lockKey: string, offsetMs: number): Promise<string> {
    const node = this.nodes[0];
    const address = `${node.host}:${node.port}`;
    const holders = await this.holders(lockKey);
    if (holders.length && !holders.some((held) => held.node === node)) throw new Error(`clock-jump: the RedLock node ${address} holds ${lockKey} for nobody, though ${holders.length} other node(s) do`);
    const dir = await onServer(node, async (redis) => ((await redis.call('CONFIG', 'GET', 'dir')) as string[])[1]);
    const file = join(dir, 'faketime');
    const offsetSec = await readFile(file, 'utf8').then(Number, () => {
      throw new Error(`clock-jump: the RedLock node ${address} runs without libfaketime (no ${file}); start the nodes with infra/scripts/ensure-redis-nodes.sh`);
    });
    const nodeNowMs = async () => onServer(node, async (redis) => ((([sec, usec]) => Number(sec) * 1000 + Number(usec) / 1000)(await redis.time())));
    const before = await nodeNowMs();
    await this.endStrangersGrants(lockKey);
    await writeFile(`${file}.next`, `+${offsetSec + offsetMs / 1000}\n`);
    await rename(`${file}.next`, file);
    await pollFor(`the RedLock node ${address} to read its clock ${offsetMs} ms ahead`, WAIT_MS, async () => (await nodeNowMs()) >= before + offsetMs);
    return address;
  }

  /**
   * The failover fault on a lock held here: one node of five restarted empty, as a master is lost with
   * what it had not replicated, and no more than RedLock claims to survive: the holder keeps a majority.
   * So one of the holder's nodes when it holds four or five, one it does not hold when it holds exactly
   * three (their votes split as it acquired): losing one of those three is RedLock's own restart pitfall,
   * the node-restart fault's. Resolves with the node's address once it serves again; null, touching
   * nothing, when no node holds the key (the lock is not on these nodes).
   */
  async loseOneNode(lockKey: string): Promise<string | null> {
    const holders = await this.holders(lockKey);
    if (!holders.length) return null;
    const holder = holders.map(({ value }) => holders.filter((held) => held.value === value)).find((its) => its.length > this.nodes.length / 2);
    if (!holder) throw new Error(`failover: no value of ${lockKey} is held on a majority of the RedLock nodes (${holders.length} held)`);
    const lost = holder.length > this.nodes.length / 2 + 1 ? holder[0] : { node: this.nodes.find((node) => !holder.some((held) => held.node === node))!, value: null };
    return this.restartEmpty(lost, lockKey);
  }

  /** Restarts the node without its data (the holder's value, if it had one, gone); resolves with its address once it serves again. */
  private async restartEmpty({ node, value }: { node: Address; value: string | null }, lockKey: string): Promise<string> {
    const address = `${node.host}:${node.port}`;
    const before = await runIdOf(node);
    // The connection drops as the process re-executes: no reply comes, only a refusal if DEBUG is off.
    await onServer(node, (redis) => redis.call('DEBUG', 'CRASH-AND-RECOVER', '0')).catch((error: Error) => {
      if (/DEBUG command not allowed/i.test(error.message)) throw new Error(`node-restart: the RedLock node ${address} refuses DEBUG; start it with --enable-debug-command local (infra/scripts/ensure-redis-nodes.sh does)`);
      if (!/Connection is closed|ECONNRESET|EPIPE/.test(error.message)) throw new Error(`node-restart: the RedLock node ${address} did not restart: ${error.message}`);
    });
    await pollFor(`the RedLock node ${address} to serve again after its restart`, WAIT_MS, async () => (await runIdOf(node)) !== before);
    // A node that kept a dump or an append-only file would come back with the grant: no pitfall to show.
    // (Another holder's grant may already be there: that is the pitfall.)
    if (value !== null && (await onServer(node, (redis) => redis.get(lockKey))) === value) throw new Error(`node-restart: the RedLock node ${address} came back still holding ${lockKey} (it persists its data)`);
    return address;
  }
}
