import type { LockService, StrategyName } from '@oversell/contracts';
import { constants } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { startLab, type Lab } from './lab';
import { LabClient } from './lab-client';

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
 * keyPrefix: the Redis key prefix of a lab it starts, so a demo running beside it keeps its queue,
 * instances and figures apart.
 */
export async function openLabSession(
  options: LabRunOptions,
  own: { keyPrefix: string; basePort: number; storeProxy: boolean; maxRestartsPerMinute?: number; log: (line: string) => void },
): Promise<LabSession> {
  const lab = options.url
    ? null
    : await startLab({
        instances: options.instances,
        gatewayPort: options.gatewayPort ?? 0,
        basePort: options.basePort ?? own.basePort,
        env: { REDIS_KEY_PREFIX: own.keyPrefix, ...options.env },
        clearKeysOnStop: true,
        storeProxy: own.storeProxy,
        maxRestartsPerMinute: own.maxRestartsPerMinute,
        strategies: options.strategies,
        services: options.services,
        log: own.log,
      });
  const allUp = async () => {
    const giveUpAt = Date.now() + ALL_UP_WAIT_MS;
    while (lab && !lab.instances.every((instance) => instance.up) && Date.now() < giveUpAt) await sleep(100);
  };
  let stopped: Promise<void> | undefined;
  const stopLab = () => (stopped ??= lab ? lab.stop() : Promise.resolve());
  const forgetSignals = lab ? stopOnSignals(stopLab, own.log) : () => undefined;
  return {
    client: new LabClient(options.url ?? lab!.gatewayUrl, process.env.ADMIN_TOKEN),
    lab,
    allUp,
    stop: async () => {
      forgetSignals();
      await stopLab();
    },
  };
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Ctrl-C (or SIGTERM) while a bench, pitfalls or soak run is going stops the lab it started as its end
 * would: instances, lock services and the lab's throwaway Redis keys. Without this the process died at
 * once and its keys stayed (an interrupted soak left about 96 000, which every later product reset
 * scanned past). Exits 128 + the signal's number, as a process killed by it would; a second signal
 * exits at once. Returns what takes the handlers off again.
 */
function stopOnSignals(stop: () => Promise<void>, log: (line: string) => void): () => void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = 128 + constants.signals[signal];
    if (stopping) process.exit(code);
    stopping = true;
    log(`${signal}: stopping the lab (its instances, lock services and Redis keys)…`);
    void stop()
      .catch((error: unknown) => log(`the lab did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => process.exit(code));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  };
}
