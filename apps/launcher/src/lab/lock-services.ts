import { LOCK_SERVICES, lockServicesNeededBy, STRATEGY_NAMES, type LockService, type StrategyName } from '@oversell/contracts';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './paths';

const run = promisify(execFile);

export interface LockServices {
  /** Each started (or given) service's variable, for the instances. */
  env: Record<string, string>;
  /** Stops the services this started; one given in the environment is left running. */
  stop(): Promise<void>;
}

const scriptOf = (service: LockService) => resolve(REPO_ROOT, 'infra', 'scripts', `ensure-${service}.sh`);

/**
 * Starts the lock services the strategies need (all registered strategies when none are named), each by
 * its infra/scripts/ensure-<service>.sh on free local ports; a service whose variable is already set in
 * `given` is used as it is. The services also stop by themselves once this process has exited (--owner),
 * however it ends. Which strategy needs which service the strategy catalogue says (each entry's `needs`),
 * so no strategy is named here. The scripts run with
 * `given` as their whole environment: each script also uses a service its variable names, and a variable
 * left out of `given` must not reach it from this process's own environment (under jest the two differ,
 * and a lab "started" the run's shared etcd, ZooKeeper and Redis Cluster, then stopped them with itself).
 * `extra`: services the runs need besides the strategies' (the failover fault's Sentinel group).
 */
export async function startLockServices(
  strategies: readonly StrategyName[] | undefined,
  given: NodeJS.ProcessEnv,
  log: (line: string) => void,
  extra: readonly LockService[] = [],
): Promise<LockServices> {
  const scriptEnv = { env: given };
  const needed = [...new Set([...lockServicesNeededBy(strategies ?? STRATEGY_NAMES), ...extra])];
  const env: Record<string, string> = {};
  const started: { service: LockService; endpoint: string }[] = [];
  const stop = async () => {
    await Promise.all(started.map(({ service, endpoint }) => run('bash', [scriptOf(service), 'stop', endpoint], scriptEnv).catch(() => undefined)));
  };
  try {
    for (const service of needed) {
      const variable = LOCK_SERVICES[service].env;
      const endpoint = given[variable];
      if (endpoint) {
        env[variable] = endpoint;
        continue;
      }
      log(`starting ${LOCK_SERVICES[service].title} (the first start installs its Debian package)…`);
      const { stdout: printed } = await run('bash', [scriptOf(service), 'start', '--owner', String(process.pid)], scriptEnv).catch((error: { stderr?: string }) => {
        throw new Error(`${LOCK_SERVICES[service].title} could not be started by ${scriptOf(service)}: ${error.stderr?.trim() || String(error)}`);
      });
      env[variable] = printed.trim();
      started.push({ service, endpoint: env[variable] });
      log(`${LOCK_SERVICES[service].title} is up: ${variable}=${env[variable]}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { env, stop };
}
