import { RUN_LIMITS, type RunParams } from '@oversell/contracts';
import { doubleClickOf } from '@oversell/loadtests';
import { ApiError } from '../error-body';

/**
 * A double-click fault changes what the load is (each buyer sends every order `copies` times at once),
 * so two loads valid on their own are not valid with it: refused here with a 400, where the run would
 * otherwise be queued and fail once its load starts (or hold connections × copies requests in flight).
 */
export function checkDoubleClickLoad({ load, faults }: Pick<RunParams, 'load' | 'faults'>): void {
  const doubleClick = doubleClickOf(faults);
  if (!doubleClick) return;
  if (load.arrivalRate !== undefined) {
    const message = 'load.arrivalRate cannot be combined with a double-click fault: its buyers click again once every copy is answered (a closed model)';
    throw new ApiError(400, 'validation_failed', message, { field: 'load.arrivalRate' });
  }
  // As many buyers as connections, or as orders meant if fewer (runDoubleClicks), each with every copy in flight.
  const inFlight = Math.min(load.connections, load.totalRequests ?? Infinity) * doubleClick.copies;
  if (inFlight > RUN_LIMITS.maxConnections) {
    const message = `load.connections × the double-click's copies is ${inFlight} requests in flight at once; at most ${RUN_LIMITS.maxConnections}`;
    throw new ApiError(400, 'validation_failed', message, { field: 'load.connections' });
  }
}
