import type { FaultSettings } from '@oversell/contracts';
import { ApiError } from '../http/error-body';
import type { InstanceBeat } from '../runs/instance-registry';

/**
 * A run's faults with their `instance` index resolved to the id of that instance among the live ones
 * (port order), which is what every instance compares its own id with. Refused with a 400 naming the
 * field when an index is beyond the live instances, or a store-cut targets an instance started without
 * the store proxy. The service checks this when a run is posted, the executor again at its start (the
 * instances may have changed while it waited in the queue).
 */
export function targetFaults(faults: readonly FaultSettings[], live: readonly InstanceBeat[]): FaultSettings[] {
  return faults.map((fault, i) => {
    const field = `faults[${i}]`;
    if (fault.instance !== undefined && fault.instance >= live.length) {
      throw new ApiError(400, 'validation_failed', `${field}.instance is ${fault.instance}, but only ${live.length} instance(s) are live (indexes from 0, in port order)`, { field: `${field}.instance` });
    }
    const targets = fault.instance === undefined ? live : [live[fault.instance]];
    if (fault.kind === 'store-cut' && targets.some((beat) => !beat.storeProxy)) {
      const without = targets.filter((beat) => !beat.storeProxy).map((beat) => `${beat.instance} (port ${beat.port})`);
      throw new ApiError(400, 'validation_failed', `${field}: store-cut needs instances started with the store proxy; ${without.join(', ')} were not`, { field: `${field}.kind` });
    }
    return fault.instance === undefined ? { ...fault } : { ...fault, instanceId: live[fault.instance].instance };
  });
}
