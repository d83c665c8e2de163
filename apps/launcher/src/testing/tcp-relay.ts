import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A store the lab's instances reach through a port of this test's: socat relaying to the real server.
 * `stop` is the store going down as the instances see it (every open connection reset, new ones
 * refused); `start` again is it coming back on the same port. The launcher's tests cannot use the
 * locks library's CuttableProxy (the module boundaries keep the launcher off it), and socat does this job.
 */
export class TcpRelay {
  private relay: ChildProcess | null = null;

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  /** Resolves once the port accepts connections. */
  async start(): Promise<void> {
    // In a process group of its own: socat forks a child per connection, and stop kills them all.
    this.relay = spawn('socat', [`TCP-LISTEN:${this.port},bind=127.0.0.1,reuseaddr,fork`, `TCP:${this.target.host}:${this.target.port}`], { stdio: 'ignore', detached: true });
    for (const deadline = Date.now() + 10_000; !(await accepts(this.port)); await sleep(20)) {
      if (Date.now() > deadline || this.relay.exitCode !== null) throw new Error(`socat did not listen on ${this.port}`);
    }
  }

  async stop(): Promise<void> {
    const relay = this.relay;
    this.relay = null;
    if (!relay || relay.exitCode !== null || relay.signalCode !== null) return;
    const exited = new Promise((resolve) => relay.once('exit', resolve));
    process.kill(-relay.pid!, 'SIGKILL');
    await exited;
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
