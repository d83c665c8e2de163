import type { FaultKind, FaultSettings } from '@oversell/contracts';
import { ApiError } from '../error-body';
import type { InstanceBeat } from '../instances/instance-registry';

/** The faults that act through something of the instance's own, what that is, and how a refusal names the instances without it. */
const NEEDS: Partial<Record<FaultKind, { has: (beat: InstanceBeat) => boolean | undefined; needs: string; lacking: string }>> = {
  'store-cut': { has: (beat) => beat.storeProxy, needs: 'store-cut needs instances started with the store proxy', lacking: 'were not' },
  failover: { has: (beat) => beat.lockSentinels, needs: 'a failover needs instances whose locks are on a Sentinel group (REDIS_SENTINELS)', lacking: 'were started without one' },
  'node-restart': { has: (beat) => beat.redlockNodes, needs: 'a node-restart needs instances with RedLock nodes (REDLOCK_NODES)', lacking: 'were started without them' },
  'clock-jump': { has: (beat) => beat.redlockNodes, needs: 'a clock-jump needs instances with RedLock nodes (REDLOCK_NODES)', lacking: 'were started without them' },
};

const NEVER_CRASHED = 'the instance running the run is never crashed';

/**
 * A run's faults with their `instance` index resolved to the id of that instance among the live ones
 * (port order), which is what every instance compares its own id with. Refused with a 400 naming the
 * field when an index is beyond the live instances, a store-cut targets an instance started without
 * the store proxy, a failover one whose locks are on no Sentinel group, a node-restart or clock-jump one
 * without RedLock nodes, or a crash has fewer than 2
 * live instances. The service checks this when a run is
 * posted, the executor again at its start (the instances may have changed while it waited in the
 * queue), passing its own instance id as `runner`: a crash then spares the runner, or is refused when
 * it names it (the run would die with it).
 */
export function targetFaults(faults: readonly FaultSettings[], live: readonly InstanceBeat[], runner?: string): FaultSettings[] {
  return faults.map((fault, i) => {
    const field = `faults[${i}]`;
    const refuse = (name: string, message: string) => new ApiError(400, 'validation_failed', message, { field: `${field}.${name}` });
    if (fault.instance !== undefined && fault.instance >= live.length) {
      throw refuse('instance', `${field}.instance is ${fault.instance}, but only ${live.length} instance(s) are live (indexes from 0, in port order)`);
    }
    const targets = fault.instance === undefined ? live : [live[fault.instance]];
    const need = NEEDS[fault.kind];
    const lacking = need ? targets.filter((beat) => !need.has(beat)) : [];
    if (lacking.length) throw refuse('kind', `${field}: ${need!.needs}; ${lacking.map((beat) => `${beat.instance} (port ${beat.port})`).join(', ')} ${need!.lacking}`);
    if (fault.kind === 'crash' && live.length < 2) {
      throw refuse('kind', `${field}: a crash needs at least 2 live instances (${live.length} live): ${NEVER_CRASHED}; start at least 2`);
    }
    if (fault.kind === 'crash' && runner !== undefined && targets[0].instance === runner && fault.instance !== undefined) {
      throw refuse('instance', `${field}.instance is ${fault.instance}, ${runner} (port ${targets[0].port}), which picked up this run: ${NEVER_CRASHED}; name another instance, or omit instance to crash every instance but the one running the run`);
    }
    if (fault.instance !== undefined) return { ...fault, instanceId: live[fault.instance].instance };
    return fault.kind === 'crash' && runner !== undefined ? { ...fault, sparedInstanceId: runner } : { ...fault };
  });
}
