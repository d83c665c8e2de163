import type { LockService } from '@oversell/contracts';
import { LockError, LockUnavailableError, type ConnectedLock, type DistributedLock } from '@oversell/locks';
import { LockServiceMissingError, NoLockMajorityError, StoreUnavailableError } from '../errors';
import type { StrategyDeps } from './strategy-definition';

/**
 * A lock on a lock service (etcd, …), connected by its lock folder's `connect…()` at its first acquire to the endpoint
 * StockOptions.lockServices gives for `service`. The process starts without the service; an order of
 * the strategy is then refused with LockServiceMissingError, which names the variable to set. A failure
 * that is not the lock's own (a LockError) is the service's: StoreUnavailableError names it, not Redis.
 * A quorum lock that reached too few of its servers to decide says so (NoLockMajorityError).
 */
export function lockOnService(service: LockService, deps: StrategyDeps, connect: (endpoint: string) => ConnectedLock): DistributedLock {
  let connected: ConnectedLock | undefined;
  deps.onShutdown(() => connected?.close());
  return {
    name: service,
    async acquire(key, options) {
      if (!connected) {
        const endpoint = deps.options.lockServices?.[service];
        if (!endpoint) throw new LockServiceMissingError(service);
        connected = connect(endpoint);
      }
      return connected.lock.acquire(key, options).catch((error: unknown) => {
        if (error instanceof LockUnavailableError) throw new NoLockMajorityError(service, error);
        throw error instanceof LockError ? error : new StoreUnavailableError(service, error);
      });
    },
  };
}
