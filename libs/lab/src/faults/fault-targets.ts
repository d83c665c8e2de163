import type { FaultKind, FaultSettings, Localized } from '@oversell/contracts';
import { ApiError } from '../error-body';
import type { InstanceBeat } from '../instances/instance-registry';

/** The faults that act through something of the instance's own, what that is, and how a refusal names the instances without it. */
const NEEDS: Partial<Record<FaultKind, { has: (beat: InstanceBeat) => boolean | undefined; needs: Localized; lacking: Localized }>> = {
  'store-cut': { has: (beat) => beat.storeProxy, needs: { en: 'store-cut needs instances started with the store proxy', 'zh-CN': 'store-cut 需要以存储代理启动的实例' }, lacking: { en: 'were not', 'zh-CN': '启动时没有存储代理' } },
  failover: { has: (beat) => beat.lockSentinels, needs: { en: 'a failover needs instances whose locks are on a Sentinel group (REDIS_SENTINELS)', 'zh-CN': 'failover 需要锁在 Sentinel 组上的实例（REDIS_SENTINELS）' }, lacking: { en: 'were started without one', 'zh-CN': '启动时没有 Sentinel 组' } },
  'node-restart': { has: (beat) => beat.redlockNodes, needs: { en: 'a node-restart needs instances with RedLock nodes (REDLOCK_NODES)', 'zh-CN': 'node-restart 需要带 RedLock 节点的实例（REDLOCK_NODES）' }, lacking: { en: 'were started without them', 'zh-CN': '启动时没有 RedLock 节点' } },
  'clock-jump': { has: (beat) => beat.redlockNodes, needs: { en: 'a clock-jump needs instances with RedLock nodes (REDLOCK_NODES)', 'zh-CN': 'clock-jump 需要带 RedLock 节点的实例（REDLOCK_NODES）' }, lacking: { en: 'were started without them', 'zh-CN': '启动时没有 RedLock 节点' } },
};

const NEVER_CRASHED: Localized = { en: 'the instance running the run is never crashed', 'zh-CN': '执行这次运行的实例不会被注入崩溃' };

/**
 * A run's faults with their `instance` index resolved to the id of that instance among the live ones
 * (port order), which is what every instance compares its own id with. Refused with a 400 naming the
 * field when an index is beyond the live instances, a store-cut targets an instance started without
 * the store proxy, a failover one whose locks are on no Sentinel group, a node-restart or clock-jump one
 * without RedLock nodes, or a crash has fewer than 2 live instances.
 *
 * The one place faults are targeted: a run's are when it is posted (the 400 goes to the client, and
 * the ids resolved are kept with the run) and again at its start, by its executor, which records the
 * refusal as the run's failure (the instances may have changed while it waited in the queue). A fault
 * that already carries its instance's id targets that instance, wherever it now sits in port order, or
 * is refused once it is gone. The executor passes its own instance id as `runner`: a crash then spares
 * the runner, or is refused when it names it (the run would die with it).
 */
export function targetFaults(faults: readonly FaultSettings[], live: readonly InstanceBeat[], runner?: string): FaultSettings[] {
  return faults.map((fault, i) => {
    const field = `faults[${i}]`;
    const refuse = (name: string, message: Localized) => new ApiError(400, 'validation_failed', message, { field: `${field}.${name}` });
    const named = fault.instanceId === undefined ? undefined : live.find((beat) => beat.instance === fault.instanceId);
    if (fault.instanceId !== undefined && !named) {
      throw refuse('instance', {
        en: `${field}.instance is ${fault.instance}, ${fault.instanceId} when the run was created, which is no longer live`,
        'zh-CN': `${field}.instance 为 ${fault.instance}，即创建运行时的 ${fault.instanceId}，该实例已不在运行`,
      });
    }
    if (!named && fault.instance !== undefined && fault.instance >= live.length) {
      throw refuse('instance', {
        en: `${field}.instance is ${fault.instance}, but only ${live.length} instance(s) are live (indexes from 0, in port order)`,
        'zh-CN': `${field}.instance 为 ${fault.instance}，但只有 ${live.length} 个实例在运行（编号从 0 开始，按端口排序）`,
      });
    }
    const targets = named ? [named] : fault.instance === undefined ? live : [live[fault.instance]];
    const need = NEEDS[fault.kind];
    const lacking = need ? targets.filter((beat) => !need.has(beat)) : [];
    if (lacking.length) {
      const names = lacking.map((beat) => `${beat.instance} (port ${beat.port})`).join(', ');
      const zhNames = lacking.map((beat) => `${beat.instance}（端口 ${beat.port}）`).join('、');
      throw refuse('kind', { en: `${field}: ${need!.needs.en}; ${names} ${need!.lacking.en}`, 'zh-CN': `${field}：${need!.needs['zh-CN']}；${zhNames}${need!.lacking['zh-CN']}` });
    }
    if (fault.kind === 'crash' && live.length < 2) {
      throw refuse('kind', {
        en: `${field}: a crash needs at least 2 live instances (${live.length} live): ${NEVER_CRASHED.en}; start at least 2`,
        'zh-CN': `${field}：crash 至少需要 2 个运行中的实例（现有 ${live.length} 个）：${NEVER_CRASHED['zh-CN']}；请至少启动 2 个`,
      });
    }
    if (fault.kind === 'crash' && runner !== undefined && targets[0].instance === runner && fault.instance !== undefined) {
      const picked = `${runner} (port ${targets[0].port})`;
      const zhPicked = `${runner}（端口 ${targets[0].port}）`;
      throw refuse('instance', {
        en: `${field}.instance is ${fault.instance}, ${picked}, which picked up this run: ${NEVER_CRASHED.en}; name another instance, or omit instance to crash every instance but the one running the run`,
        'zh-CN': `${field}.instance 为 ${fault.instance}，即接手这次运行的 ${zhPicked}：${NEVER_CRASHED['zh-CN']}；请指定另一个实例，或省略 instance，让除执行这次运行的实例之外的所有实例崩溃`,
      });
    }
    if (fault.instance !== undefined) return { ...fault, instanceId: targets[0].instance };
    return fault.kind === 'crash' && runner !== undefined ? { ...fault, sparedInstanceId: runner } : { ...fault };
  });
}
