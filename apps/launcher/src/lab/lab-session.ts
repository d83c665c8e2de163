import type { LockService, StrategyName } from '@oversell/contracts';
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureLabServices, startLab, type Lab } from './lab';
import { LabClient } from './lab-client';
import { claimSessionKeys, type SessionKeys } from './session-keys';

/** How a command that drives runs through the lab (bench, pitfalls) finds it: a lab of its own, or one already running. */
export interface LabRunOptions {
  instances: number;
  /** A lab that is already running; none is started then. */
  url?: string;
  outDir: string;
  command: string;
  /** Extra environment for the instances it starts. */
  env?: NodeJS.ProcessEnv;
  basePort?: number;
  gatewayPort?: number;
  /** The strategies it will run, for a lab it starts (LabOptions.strategies): default every one. */
  strategies?: readonly StrategyName[];
  /** Lock services its runs need besides the strategies' (LabOptions.services). */
  services?: readonly LockService[];
}

export interface LabSession {
  client: LabClient;
  /** The Redis key prefix of the lab it started (REDIS_KEY_PREFIX), cleared when it stops; null for a lab at `url`. */
  keyPrefix: string | null;
  /** The lab this session started, or null when it uses one at `url`. */
  lab: Lab | null;
  /**
   * Resolves once every instance of a lab it started is up again, or after ALL_UP_WAIT_MS (a lab at a
   * URL is not its to watch): after a crash fault the launcher is still restarting one, and the next
   * crash run needs 2 live instances.
   */
  allUp(): Promise<void>;
  stop(): Promise<void>;
}

const ALL_UP_WAIT_MS = 30_000;

/**
 * own.keyPrefix: what the Redis key prefix of a lab it starts begins with; each session has one of its
 * own (session-keys.ts), unless options.env names one. So a demo or another session beside it keeps
 * its queue, instances and figures apart: a second bench started on the ports of a running one fails
 * to start and clears only its own keys (with one shared prefix it cleared the running bench's stock,
 * queue and figures).
 */
export async function openLabSession(
  options: LabRunOptions,
  own: { keyPrefix: string; basePort: number; storeProxy: boolean; maxRestartsPerMinute?: number; countGatewayAnswers?: boolean; log: (line: string) => void },
): Promise<LabSession> {
  if (!options.url) ensureLabServices();
  const sessionKeys: SessionKeys | null = options.url || options.env?.REDIS_KEY_PREFIX ? null : await claimSessionKeys({ ...process.env, ...options.env }, own.keyPrefix, own.log);
  const keyPrefix = options.url ? null : (sessionKeys?.prefix ?? options.env!.REDIS_KEY_PREFIX!);
  const starting = options.url
    ? null
    : startLab({
        instances: options.instances,
        gatewayPort: options.gatewayPort ?? 0,
        basePort: options.basePort ?? own.basePort,
        env: { ...options.env, REDIS_KEY_PREFIX: keyPrefix! },
        ensureServices: false,
        clearKeysOnStop: true,
        storeProxy: own.storeProxy,
        maxRestartsPerMinute: own.maxRestartsPerMinute,
        strategies: options.strategies,
        services: options.services,
        countGatewayAnswers: own.countGatewayAnswers,
        log: own.log,
      });
  let stopped: Promise<void> | undefined;
  // A lab that failed to start has stopped itself (startLab). The prefix is let go once the lab's keys are cleared.
  const stopLab = () =>
    (stopped ??= (starting ?? Promise.resolve(null)).then((lab) => lab?.stop(), () => undefined).finally(() => sessionKeys?.release().catch((error: Error) => own.log(`could not let go of the lab's key prefix: ${error.message}`))));
  // From the start on: a Ctrl-C while the lab starts (lock services, instances) must stop it too.
  const forgetSignals = starting ? stopOnSignals(stopLab, own.log) : () => undefined;
  let lab: Lab | null;
  try {
    lab = await starting;
  } catch (error) {
    await stopLab();
    forgetSignals();
    throw error;
  }
  const allUp = async () => {
    const giveUpAt = Date.now() + ALL_UP_WAIT_MS;
    while (lab && !lab.instances.every((instance) => instance.up) && Date.now() < giveUpAt) await sleep(100);
  };
  return {
    client: new LabClient(options.url ?? lab!.gatewayUrl, process.env.ADMIN_TOKEN),
    keyPrefix,
    lab,
    allUp,
    stop: async () => {
      // The handlers stay until the lab has stopped: a Ctrl-C during this stop waits for it, not kills it.
      try {
        await stopLab();
      } finally {
        forgetSignals();
      }
    },
  };
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const REPEAT_WINDOW_MS = 1000;

/**
 * Ctrl-C (or SIGTERM) while a bench, pitfalls or soak run is going stops the lab it started as its end
 * would: instances, lock services and the lab's throwaway Redis keys. Without this the process died at
 * once and its keys stayed (an interrupted soak left about 96 000, which every later product reset
 * scanned past). Exits 128 + the signal's number, as a process killed by it would. A signal more than
 * REPEAT_WINDOW_MS after the first exits at once; one within it is the same Ctrl-C arriving twice (from
 * the terminal and forwarded by npm) and is ignored. Returns what takes the handlers off again.
 */
function stopOnSignals(stop: () => Promise<void>, log: (line: string) => void): () => void {
  let firstAt: number | undefined;
  const exit = (code: number) => {
    // The progress bar hid the cursor; it would stay hidden after an exit in the middle of a run.
    if (process.stderr.isTTY) process.stderr.write('\x1b[?25h');
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    const code = 128 + constants.signals[signal];
    if (firstAt !== undefined) {
      if (Date.now() - firstAt > REPEAT_WINDOW_MS) exit(code);
      return;
    }
    firstAt = Date.now();
    log(`${signal}: stopping the lab (its instances, lock services and Redis keys)…`);
    void stop()
      .catch((error: unknown) => log(`the lab did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => exit(code));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
}
