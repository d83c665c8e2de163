import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { createInterface } from 'node:readline';
import { ORDER_SERVICE_MAIN } from './paths';

export interface InstanceSpec {
  id: string;
  port: number;
  /** Only one instance runs the run worker; the others only serve orders. */
  runWorker: boolean;
  env: NodeJS.ProcessEnv;
  /** Restarts allowed within RESTART_WINDOW_MS before the supervisor gives up on a crash loop (default 5). */
  maxRestartsPerMinute?: number;
}

const READY_TIMEOUT_MS = 60_000;
/**
 * On a machine with plenty of memory V8 lets the heap grow far before it collects; a capped old space
 * keeps each instance's RSS in check under load (set LAB_INSTANCE_NODE_FLAGS to override). The young
 * generation is not cut below V8's 16 MB: 500 requests in flight outlive a smaller one, so every
 * scavenge copies them and promotes them, and the old space fills with them. Under the no-op load a
 * 4 MB one spent 1.35 s of 8 in GC (491 scavenges, 21 mark-compacts) against 0.25 s at 16 MB
 * (docs/performance.md).
 */
export const INSTANCE_NODE_FLAGS = (process.env.LAB_INSTANCE_NODE_FLAGS ?? '--max-old-space-size=160 --max-semi-space-size=16').split(/\s+/).filter(Boolean);
/**
 * glibc malloc's arenas (one per thread that allocates, up to 8 per core) keep freed native memory: in two
 * paired 10-minute soaks, 2 arenas held the run worker's RSS drift to 6.4 and 13.5 % where the default
 * let it reach 9.9 and 18.4 % (docs/benchmarks.md). A MALLOC_ARENA_MAX in the environment wins.
 */
const DEFAULT_MALLOC_ARENA_MAX = '2';
const STOP_GRACE_MS = 10_000;
const RESTART_WINDOW_MS = 60_000;
const DEFAULT_MAX_RESTARTS_PER_MINUTE = 5;

/**
 * One order-service process, supervised: started, awaited until it says it listens, restarted on the
 * same port with the same environment if it dies unexpectedly (a crash fault, an OOM kill, a bug), so
 * the gateway has its upstream back; a process that keeps dying is given up on after
 * maxRestartsPerMinute restarts in a minute rather than restarted in a loop. Stopped with SIGTERM
 * and, after a grace period, SIGKILL; a stopping instance is never restarted. Emits 'up' and 'down' as
 * it starts and stops listening: the lab's edge takes it in and out of its upstreams on them.
 */
export class Instance extends EventEmitter<{ up: []; down: [] }> {
  private child: ChildProcess | null = null;
  private stopping = false;
  private listening = false;
  restarts = 0;
  /** Set once the supervisor stopped restarting a process that kept dying. */
  gaveUp = false;
  private recentDeaths: number[] = [];

  constructor(
    readonly spec: InstanceSpec,
    private readonly log: (line: string) => void,
  ) {
    super();
  }

  /** True while the process listens; the edge only sends traffic to instances that are up. */
  get up(): boolean {
    return this.listening;
  }

  private setUp(up: boolean): void {
    if (up === this.listening) return;
    this.listening = up;
    this.emit(up ? 'up' : 'down');
  }

  get url(): string {
    return `http://127.0.0.1:${this.spec.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const child = spawn(process.execPath, [...INSTANCE_NODE_FLAGS, ORDER_SERVICE_MAIN], {
      env: {
        MALLOC_ARENA_MAX: DEFAULT_MALLOC_ARENA_MAX,
        ...process.env,
        ...this.spec.env,
        PORT: String(this.spec.port),
        HOST: '127.0.0.1',
        INSTANCE_ID: this.spec.id,
        RUN_WORKER: String(this.spec.runWorker),
      },
      // The IPC channel is only there to close when this process dies: the instance stops with it (main.ts).
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.channel?.unref();
    this.child = child;
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A process that never listens is useless and would hold the port the next attempt needs.
        child.kill('SIGKILL');
        reject(new Error(`${this.spec.id} did not start listening within ${READY_TIMEOUT_MS / 1000} s`));
      }, READY_TIMEOUT_MS);
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        if (line.startsWith('order-service ') && line.includes(' listening on ')) {
          clearTimeout(timer);
          resolve();
        } else if (!line.startsWith('{') || line.includes('"level":5') || line.includes('"level":4')) {
          // Structured info logs stay quiet; warnings, errors and anything unstructured are shown.
          this.log(`[${this.spec.id}] ${line}`);
        }
      });
      createInterface({ input: child.stderr! }).on('line', (line) => this.log(`[${this.spec.id}] ${line}`));
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`${this.spec.id} exited (${signal ?? code}) before it listened`));
      });
    });
    await ready;
    this.setUp(true);
    child.once('exit', (code, signal) => {
      this.setUp(false);
      if (this.child === child) this.restartAfterDeath(`exited unexpectedly (${signal ?? `code ${code}`})`);
    });
  }

  private restartAfterDeath(how: string): void {
    if (this.stopping) return;
    const now = Date.now();
    this.recentDeaths = [...this.recentDeaths.filter((at) => now - at < RESTART_WINDOW_MS), now];
    const allowed = this.spec.maxRestartsPerMinute ?? DEFAULT_MAX_RESTARTS_PER_MINUTE;
    if (this.recentDeaths.length > allowed) {
      this.gaveUp = true;
      this.log(`[${this.spec.id}] ${how}; it died ${this.recentDeaths.length} times within a minute: not restarting it again (port ${this.spec.port} stays down)`);
      return;
    }
    this.log(`[${this.spec.id}] ${how}; restarting it on port ${this.spec.port}`);
    this.restarts++;
    this.start().catch((error: Error) => this.restartAfterDeath(`restart failed: ${error.message}`));
  }

  /** Kills the process as a crash would (the supervisor restarts it). */
  crash(): void {
    this.setUp(false);
    this.child?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
