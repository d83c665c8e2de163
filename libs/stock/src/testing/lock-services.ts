import { LOCK_SERVICES, lockServicesNeededBy, STRATEGY_NAMES, type LockService } from '@oversell/contracts';
import { startLockServer } from '@oversell/locks';

/**
 * Starts each lock service (infra/scripts/ensure-<service>.sh; stopped once this process has exited) and
 * sets its variable, so the test processes started after it find it. A variable already set names a
 * server to use instead. By default the services the strategies need: a Sentinel group, which no
 * strategy needs, would move every Redis lock of the suite onto it (REDIS_SENTINELS).
 */
export function startLockServices(services: readonly LockService[] = lockServicesNeededBy(STRATEGY_NAMES)): void {
  for (const service of services) startLockServer(service, LOCK_SERVICES[service].env);
}
