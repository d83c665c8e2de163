import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real server (Redis, MySQL, ZooKeeper) that can be cut and restored: the
 * server itself stays up for everyone else (other tests, other instances), while whoever connects
 * through the proxy sees it go away (connections reset, new ones refused) exactly as it would in an
 * outage. Tests use it directly; the store-cut fault through @oversell/stock's StoreCutProxy.
 */
export class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private swallowing = false;
  private holding = false;
  private held: Buffer[] = [];
  private replyDelayMs = 0;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    const server = createServer((client) => {
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.on('data', (request: Buffer) => {
        if (this.holding) this.held.push(request);
        else upstream.write(request);
      });
      upstream.on('data', (reply: Buffer) => {
        if (this.swallowing) return;
        // One delay for every chunk: timers of equal delay fire in order, so the replies keep theirs.
        if (this.replyDelayMs) setTimeout(() => client.write(reply), this.replyDelayMs);
        else client.write(reply);
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** The outage: every open connection is reset and the port stops accepting. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.swallowing = false;
    this.holding = false;
    this.held = [];
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /**
   * From now on the store's answers are dropped on their way back: a command sent now reaches the
   * store and runs, but its sender never hears the reply (the moment a connection dies in).
   */
  swallowReplies(): void {
    this.swallowing = true;
  }

  /**
   * From now on what senders send is held here, never reaching the store: a command sent now does not
   * run, though its sender cannot tell (a cut then looks to it like a connection lost mid-command). A cut
   * or a reset drops what was held.
   */
  holdRequests(): void {
    this.holding = true;
  }

  /**
   * From now on every reply reaches its sender `ms` later: a store far away, or a congested link. Set
   * it while no reply is on its way: replies delayed by different amounts could overtake each other.
   */
  delayReplies(ms: number): void {
    this.replyDelayMs = ms;
  }

  /** Every open connection is reset; the port keeps accepting new ones, which hear their replies again. */
  resetConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.swallowing = false;
    this.holding = false;
    this.held = [];
  }

  /** The store comes back on the same port. */
  async restore(): Promise<void> {
    await this.start(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }
}
