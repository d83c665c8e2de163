import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** The command a replica opens its replication stream with (redis.io, replication protocol). */
const PSYNC = /\bP?SYNC\b/i;

/**
 * A TCP proxy that stands for the Redis master: everyone reaches the master through it (the replica,
 * the Sentinels, the lock clients), and it can hold back what the master sends down its replication
 * links. From `holdReplication()` on, a write the master accepts is acknowledged to its client but
 * reaches the replica only if the proxy lets it through — it never does: the held bytes die with the
 * master (SIGKILL), which is the articles' "the master died before the key replicated", made exact.
 */
export class MasterProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly replicationLinks = new Set<Socket>();
  private holding = false;
  private heldBytes = 0;

  private constructor(private readonly masterPort: number) {
    this.server = createServer((client) => this.forward(client));
  }

  /** Listens on a free 127.0.0.1 port (`port`) for the master on `masterPort`, which may start later. */
  static async start(masterPort: number): Promise<MasterProxy> {
    const proxy = new MasterProxy(masterPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** How many replication links (replicas that sent PSYNC) pass through the proxy now. */
  get replicas(): number {
    return this.replicationLinks.size;
  }

  /** Bytes of the replication stream held back since holdReplication(). */
  get held(): number {
    return this.heldBytes;
  }

  /** From now on, nothing the master sends on a replication link reaches the replica. */
  holdReplication(): void {
    this.holding = true;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(client: Socket): void {
    const master = createConnection({ host: '127.0.0.1', port: this.masterPort });
    for (const socket of [client, master]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (bytes: Buffer) => {
      if (PSYNC.test(bytes.toString('latin1'))) this.replicationLinks.add(client);
      master.write(bytes);
    });
    master.on('data', (bytes: Buffer) => {
      if (this.holding && this.replicationLinks.has(client)) this.heldBytes += bytes.length;
      else client.write(bytes);
    });
    // A dead master takes its links down with it; whatever was held goes nowhere.
    client.on('close', () => {
      this.replicationLinks.delete(client);
      master.destroy();
    });
    master.on('close', () => client.destroy());
  }
}
