import type { LockService, StrategyName } from '@oversell/contracts';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { assertAdminTokenFor, startEdge, type Edge } from './edge';
import { Instance } from './instance';
import { clearLabKeys, throwawayPrefix } from './lab-keys';
import { startLockServices } from './lock-services';
import { BENCH_RESULTS_DIR, DASHBOARD_DIST, ENSURE_SERVICES_SCRIPT } from './paths';

export interface LabOptions {
  /** Order-service instances (separate processes), default 3. */
  instances: number;
  /** The gateway's port (dashboard + API), default 8080. */
  gatewayPort: number;
  /** The gateway's bind address, default 127.0.0.1; beyond loopback adminToken is required. */
  gatewayHost?: string;
  /** Names the gateway answers for beyond loopback (its Host check); see EdgeOptions.publicHosts. */
  publicHosts?: readonly string[];
  /** ADMIN_TOKEN for every instance (they check it on admin actions); default: the environment's. */
  adminToken?: string;
  /** Instance i listens on basePort + i. */
  basePort: number;
  /** Extra environment for every instance (database, key prefix, …). */
  env?: NodeJS.ProcessEnv;
  /** Start Redis/MariaDB if they are installed but down (infra/scripts/ensure-services.sh). */
  ensureServices?: boolean;
  /**
   * Route each instance's Redis connections through its in-process store-cut proxy (STORE_PROXY), so a
   * store-cut fault can cut them; default true. The bench turns it off: the extra hop costs throughput.
   */
  storeProxy?: boolean;
  /** Restarts of a crashed instance allowed within a minute before the launcher gives up on it (default 5). */
  maxRestartsPerMinute?: number;
  /** The index of the instance whose run worker executes the runs (default 0, the lowest port); the others run none. */
  runWorker?: number;
  /**
   * The strategies the lab will run (default: every one): the lock services they need (etcd, …) are
   * started before the instances and stopped with the lab. The others refuse orders (503) in this lab.
   */
  strategies?: readonly StrategyName[];
  /**
   * Lock services the runs need besides the strategies' (a failover fault needs 'redis-sentinel': the
   * instances then keep their Redis locks on that group's master), started and stopped the same way.
   */
  services?: readonly LockService[];
  /**
   * Delete the lab's Redis keys (its own REDIS_KEY_PREFIX, required) once it has stopped: for labs whose
   * runs are read before they stop (tests, bench, pitfalls, soak). The demo keeps its run history.
   */
  clearKeysOnStop?: boolean;
  log?: (line: string) => void;
  /** Lets the edge count its forwarded answers (EdgeOptions.countAnswers): the bench's no-op through the gateway. */
  countGatewayAnswers?: boolean;
}

export interface Lab {
  gatewayUrl: string;
  /** nginx in front of the instances. */
  edge: Edge;
  instances: readonly Instance[];
  /** The lock services' variables the instances were given (ETCD_ENDPOINTS, …). */
  lockServices: Readonly<Record<string, string>>;
  /** Resolves once nginx serves the upstreams of the instances' last change (an instance up or down): its reload is asynchronous. */
  gatewayFollowed(): Promise<void>;
  stop(): Promise<void>;
}

/** Makes sure the local Redis and MySQL answer (infra/scripts/ensure-services.sh starts them if needed). */
export function ensureLabServices(): void {
  execFileSync('bash', [ENSURE_SERVICES_SCRIPT], { stdio: 'inherit' });
}

/**
 * Starts K instances (all at once: migrations serialize themselves) and nginx in front of them (edge.ts),
 * whose upstreams follow the instances that are up: one that dies is taken out, one restarted put back.
 */
export async function startLab(options: LabOptions): Promise<Lab> {
  const log = options.log ?? ((line: string) => console.log(line));
  if (options.ensureServices ?? true) ensureLabServices();
  const adminToken = options.adminToken ?? process.env.ADMIN_TOKEN;
  assertAdminTokenFor(options.gatewayHost ?? '127.0.0.1', adminToken);
  const labEnv = { ...process.env, ...options.env };
  const throwaway = options.clearKeysOnStop ? throwawayPrefix(labEnv) : null;
  const lockServices = await startLockServices(options.strategies, labEnv, log, options.services);
  // The instances read this lab's latest reports there for the Explain view (GET /api/lab-figures/…).
  const env = { STORE_PROXY: String(options.storeProxy ?? true), LAB_RESULTS_DIR: BENCH_RESULTS_DIR, ...lockServices.env, ...options.env, ...(adminToken ? { ADMIN_TOKEN: adminToken } : {}) };
  const instances = Array.from(
    { length: options.instances },
    (_, i) => new Instance({ id: `instance-${i + 1}`, port: options.basePort + i, runWorker: i === (options.runWorker ?? 0), env, maxRestartsPerMinute: options.maxRestartsPerMinute }, log),
  );
  let edge: Edge | null = null;
  let stopping = false;
  const stop = async () => {
    stopping = true;
    // All at once: a Ctrl-C reaches the instances too (one process group), and an instance that exits
    // before it is marked stopping would be restarted by its supervisor in the middle of the stop.
    const stopped = await Promise.allSettled([edge?.stop(), ...instances.map((instance) => instance.stop())]);
    await lockServices.stop();
    // Said, not thrown: on a failed start it would hide the error that stopped the lab.
    if (throwaway) await clearLabKeys(labEnv, throwaway).catch((error: Error) => log(`could not clear the lab's Redis keys (${throwaway}:*): ${error.message}`));
    // A part that failed to stop is reported once the rest has been stopped and cleared.
    const failed = stopped.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  };
  // The last reload asked for (setUpstreams runs them one at a time, in order).
  let following: Promise<void> = Promise.resolve();
  try {
    await Promise.all(instances.map((instance) => instance.start()));
    if (!existsSync(DASHBOARD_DIST)) log(`The dashboard is not built (${DASHBOARD_DIST} is missing): run npx nx run dashboard:build. The API is at /api/docs.`);
    const upstreams = () => instances.filter((i) => i.up).map((i) => i.url);
    const started = await startEdge({
      port: options.gatewayPort,
      host: options.gatewayHost,
      adminToken,
      publicHosts: options.publicHosts,
      upstreams: upstreams(),
      dashboardDir: DASHBOARD_DIST,
      countAnswers: options.countGatewayAnswers,
    });
    edge = started;
    // The instances stopping with the lab are not followed: nginx stops with them.
    const follow = () => {
      if (!stopping) following = started.setUpstreams(upstreams()).catch((error: Error) => log(`nginx kept its old upstreams: ${error.message}`));
    };
    for (const instance of instances) instance.on('up', follow).on('down', follow);
  } catch (error) {
    await stop();
    throw error;
  }
  return { gatewayUrl: edge.url, edge, instances, lockServices: lockServices.env, gatewayFollowed: () => following, stop };
}
