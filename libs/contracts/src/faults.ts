import type { Localized } from './locale';

/**
 * Faults a run can carry: each one is injected for real, at a named fault point that the strategies and
 * locks already pass through (or, for double-click, by the load tool), in every instance the fault
 * names, never by editing a strategy. A run's faults travel with the product's run settings, so every
 * instance reads the same ones.
 */
export const FAULT_KINDS = ['crash', 'pause', 'stop-the-world', 'clock-offset', 'store-cut', 'double-click', 'failover', 'node-restart', 'clock-jump'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * The named moments of an order where an instance-side fault can fire: the critical section's own
 * (lock-acquired, stock-read, stock-written, order-recorded), a counter overdrawn and not yet put back
 * (stock-overdrawn), a batch of queued orders written and its jobs not yet completed (order-batch-written),
 * and the gaps inside the hand-made locks' two-command steps. The stock library's
 * FAULT_POINTS are the same list (its test says so).
 */
export const FAULT_POINT_NAMES = [
  'lock-acquired',
  'stock-read',
  'stock-written',
  'order-recorded',
  'stock-overdrawn',
  'order-batch-written',
  'lock-set-before-expire',
  'release-checked-before-del',
  'stamp-read-before-getset',
] as const;
export type FaultPointName = (typeof FAULT_POINT_NAMES)[number];

/** The stores a store-cut can cut this instance off (Redis by default). */
export const FAULT_STORES = ['redis', 'mysql'] as const;
export type FaultStore = (typeof FAULT_STORES)[number];

/** The faults that fire at a fault point (clock-offset holds for the whole run; double-click is the load tool's). */
export const FAULTS_AT_A_POINT: readonly FaultKind[] = ['crash', 'pause', 'stop-the-world', 'store-cut', 'failover', 'node-restart', 'clock-jump'];
/**
 * The faults at a point that fire once per run at most (no every, no probability): a failover's Sentinel
 * group must be whole again first; a node restart and a clock jump are set up at the run's reset for its first holding.
 */
export const FAULTS_ONCE_PER_RUN: readonly FaultKind[] = ['failover', 'node-restart', 'clock-jump'];
/** The faults that last a while and say how long. */
export const FAULTS_WITH_DURATION: readonly FaultKind[] = ['pause', 'stop-the-world', 'store-cut'];

export const FAULT_LIMITS = {
  maxFaultsPerRun: 8,
  maxDurationMs: 30_000,
  maxClockOffsetMs: 600_000,
  maxCopies: 10,
  maxEvery: 1_000_000,
} as const;

/**
 * One fault of a run. How often it fires at its point, counted over all the run's instances together:
 * `once` (the default when neither `every` nor `probability` is given), every `every`-th passage, or
 * each passage with `probability` (0 < p ≤ 1). At most one of the three.
 *
 * A crash never kills the instance running the run (its worker drives the load and gathers the
 * figures: killing it would lose the run). Without `instance`, a crash targets every live instance but
 * that one; an `instance` naming that one fails the run at its start. So a crash needs at least 2 live
 * instances (the API answers 400 with fewer).
 *
 * A failover fires once per run (`every` and `probability` are refused): the locks' Sentinel group
 * (REDIS_SENTINELS) has to be whole again, master and replica, before it can fail over again. Its
 * replica is held back from the run's reset on, so a lock key set during the run has not replicated;
 * at its point the master is shut down, and the fault returns once Sentinel has promoted the replica.
 * The API answers 400 when the instances' locks are on no Sentinel group. A lock held on the RedLock
 * nodes has no master to fail over: for it the failover restarts one node without its data, one whose loss
 * leaves the holder a majority (losing one of exactly three is the node-restart fault).
 *
 * A node restart (RedLock's pitfall, Kleppmann's sequence) fires once per run too, on the five RedLock
 * nodes (REDLOCK_NODES) and the run's lock key. At the run's reset two of the nodes get a stranger's
 * grant of that key, as a client that died part-way through its acquire leaves one, so the first holder
 * wins exactly the other three. At its point the stranger's grants end and one of the holder's three
 * nodes restarts without its data (its process re-executes, keeping nothing, as a node without
 * persistence does); the fault returns once that node answers again. The holder then has two of five
 * nodes, and a second majority can form on the other three. The API answers 400 when the instances have
 * no RedLock nodes.
 *
 * A clock jump (RedLock's clock pitfall) is set up as a node restart is, and fires once per run too: at
 * its point the stranger's grants end and the wall clock of the first RedLock node, which runs under
 * libfaketime (infra/scripts/ensure-redis-nodes.sh), steps forward by `offsetMs`, as an NTP step does.
 * That node expires keys by its own clock: the holder's grant there is gone at once, so the holder has
 * two of five nodes and a second majority can form on the other three. The fault returns once the node's
 * TIME reads the jumped clock. The API answers 400 when the instances have no RedLock nodes.
 */
export interface FaultSettings {
  kind: FaultKind;
  /** Where it fires: required for crash, pause, stop-the-world, store-cut, failover and node-restart; not allowed for the others. */
  at?: FaultPointName;
  once?: boolean;
  every?: number;
  probability?: number;
  /** pause, stop-the-world, store-cut: how long, in ms (1 … FAULT_LIMITS.maxDurationMs). */
  durationMs?: number;
  /**
   * store-cut: which store this instance is cut off — 'redis' (the default: the stock keys and the locks)
   * or 'mysql' (the stock rows, the MySQL locks and every order write). The lab's own bookkeeping is never cut.
   */
  store?: FaultStore;
  /** clock-offset: how far this instance's "now" is shifted, ± ms (non-zero); clock-jump: how far the node's clock steps forward (> 0). */
  offsetMs?: number;
  /**
   * Which instance it applies to: its index among the run's live instances in port order (0 = the
   * lowest port). Omitted: every instance. clock-offset on every instance shifts them all alike, which
   * shows nothing: give it one instance.
   */
  instance?: number;
  /**
   * The id of the instance `instance` named, resolved from the live instances when the run is created
   * (kept with the run, so its start targets that same instance, or fails if it is gone) or the product
   * reset: what the instances compare their own id with. Never sent by a client (the API refuses it).
   */
  instanceId?: string;
  /**
   * crash without `instance`: the id of the instance running the run, which the crash spares (set by the
   * run's executor at the start). Never sent by a client (the API refuses it).
   */
  sparedInstanceId?: string;
  /** double-click: how many copies of each order the load tool sends at once, with the same idempotency key (2 … maxCopies). */
  copies?: number;
  /** double-click: whether the copies carry an idempotency key (default true); without one, each copy is its own order. */
  idempotencyKey?: boolean;
}

/** One injected fault, as it happened: the lock timeline marks it at its moment, on its instance. */
export interface FaultEvent {
  kind: FaultKind;
  /** The fault point it fired at; null for clock-offset (from the run's start) and double-click. */
  at: FaultPointName | null;
  instance: string;
  /** The order it fired in (the request id the lock events carry), when it fired inside one. */
  requestId: string | null;
  /** Epoch ms with fractions. */
  startedAt: number;
  /** When it ended (pause, stop-the-world, store-cut, double-click); null for a crash (the process is gone) and for faults without a duration. */
  endedAt: number | null;
  /**
   * double-click: what the load tool sent, recorded by the instance running the run (its worker drives
   * the load) over the load's span: `clicks` orders meant, each sent `copies` times at once, with one
   * idempotency key or none.
   */
  doubleClick?: { clicks: number; copies: number; idempotencyKey: boolean };
  /** store-cut: the store the instance was cut off. */
  store?: FaultStore;
}

/**
 * One thing wrong with a run's faults: the request field it names (e.g. `faults[0].durationMs`, as the API's
 * 400 does) and why, in every language (the service answers in the client's, the run form in the page's).
 */
export interface FaultSettingsProblem {
  field: string;
  message: Localized;
}

const isWholeNumber = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * Which of a fault's optional fields its kind reads (the run form shows only those); any other given
 * field is a mistake, not a no-op.
 */
export function faultFieldsOf(kind: FaultKind): (keyof FaultSettings)[] {
  const atAPoint = FAULTS_AT_A_POINT.includes(kind);
  return [
    ...(atAPoint ? (['at', 'once'] as const) : []),
    ...(atAPoint && !FAULTS_ONCE_PER_RUN.includes(kind) ? (['every', 'probability'] as const) : []),
    ...(atAPoint ? (['instance'] as const) : []),
    ...(FAULTS_WITH_DURATION.includes(kind) ? (['durationMs'] as const) : []),
    ...(kind === 'store-cut' ? (['store'] as const) : []),
    ...(kind === 'clock-offset' ? (['offsetMs', 'instance'] as const) : []),
    ...(kind === 'clock-jump' ? (['offsetMs'] as const) : []),
    ...(kind === 'double-click' ? (['copies', 'idempotencyKey'] as const) : []),
  ];
}

/**
 * Everything wrong with one fault, each problem naming the fault's own field (`at`, `durationMs`, …):
 * the service's DTO reads them field by field, faultSettingsProblems prefixes them with the fault's place.
 */
export function faultProblems(fault: FaultSettings): FaultSettingsProblem[] {
  const problems: FaultSettingsProblem[] = [];
  const problem = (field: string, en: string, zh: string) => problems.push({ field, message: { en, 'zh-CN': zh } });
  const { maxEvery, maxDurationMs, maxClockOffsetMs, maxCopies } = FAULT_LIMITS;
  if (!(FAULT_KINDS as readonly unknown[]).includes(fault.kind)) {
    problem('kind', `kind must be one of ${FAULT_KINDS.join(', ')}`, `kind 必须是 ${FAULT_KINDS.join('、')} 之一`);
    return problems;
  }
  const { kind } = fault;
  const allowed = faultFieldsOf(kind);
  for (const name of ['at', 'once', 'every', 'probability', 'durationMs', 'store', 'offsetMs', 'instance', 'copies', 'idempotencyKey'] as const) {
    if (fault[name] !== undefined && !allowed.includes(name)) problem(name, `${name} does not apply to a ${kind} fault`, `${name} 不适用于 ${kind} 故障`);
  }
  if (allowed.includes('at')) {
    if (fault.at === undefined) problem('at', `a ${kind} fault needs a fault point (at)`, `${kind} 故障需要一个故障点（at）`);
    else if (!(FAULT_POINT_NAMES as readonly unknown[]).includes(fault.at))
      problem('at', `at must be one of ${FAULT_POINT_NAMES.join(', ')}`, `at 必须是 ${FAULT_POINT_NAMES.join('、')} 之一`);
    const howOften = (['once', 'every', 'probability'] as const).filter((name) => fault[name] !== undefined);
    if (howOften.length > 1)
      problem(howOften[0], `give at most one of once, every and probability (got ${howOften.join(' and ')})`, `once、every 和 probability 最多只能给一个（收到 ${howOften.join(' 和 ')}）`);
    if (fault.once !== undefined && fault.once !== true) problem('once', 'once must be true when given', '给出 once 时它必须为 true');
    if (fault.every !== undefined && (!isWholeNumber(fault.every) || fault.every < 1 || fault.every > maxEvery))
      problem('every', `every must be a whole number from 1 to ${maxEvery}`, `every 必须是 1 到 ${maxEvery} 之间的整数`);
    if (fault.probability !== undefined && !(typeof fault.probability === 'number' && fault.probability > 0 && fault.probability <= 1))
      problem('probability', 'probability must be above 0 and at most 1', 'probability 必须大于 0 且不超过 1');
  }
  if (allowed.includes('durationMs') && !(isWholeNumber(fault.durationMs) && fault.durationMs >= 1 && fault.durationMs <= maxDurationMs))
    problem('durationMs', `a ${kind} fault needs durationMs, a whole number from 1 to ${maxDurationMs}`, `${kind} 故障需要 durationMs，取 1 到 ${maxDurationMs} 之间的整数`);
  if (allowed.includes('store') && fault.store !== undefined && !(FAULT_STORES as readonly unknown[]).includes(fault.store))
    problem('store', `store must be one of ${FAULT_STORES.join(', ')}`, `store 必须是 ${FAULT_STORES.join('、')} 之一`);
  if (kind === 'clock-offset' && !(isWholeNumber(fault.offsetMs) && fault.offsetMs !== 0 && Math.abs(fault.offsetMs) <= maxClockOffsetMs))
    problem(
      'offsetMs',
      `a clock-offset fault needs offsetMs, a non-zero whole number from -${maxClockOffsetMs} to ${maxClockOffsetMs}`,
      `clock-offset 故障需要 offsetMs，取 -${maxClockOffsetMs} 到 ${maxClockOffsetMs} 之间的非零整数`,
    );
  // Forward only: a node whose clock steps back keeps its grants longer, which breaks nothing.
  if (kind === 'clock-jump' && !(isWholeNumber(fault.offsetMs) && fault.offsetMs > 0 && fault.offsetMs <= maxClockOffsetMs))
    problem('offsetMs', `a clock-jump fault needs offsetMs, a whole number from 1 to ${maxClockOffsetMs}`, `clock-jump 故障需要 offsetMs，取 1 到 ${maxClockOffsetMs} 之间的整数`);
  // All clocks shifted alike show nothing: clock-offset names its one instance.
  if (kind === 'clock-offset' && fault.instance === undefined) problem('instance', 'instance is required for clock-offset', 'clock-offset 故障必须给出 instance');
  if (allowed.includes('instance') && fault.instance !== undefined && !(isWholeNumber(fault.instance) && fault.instance >= 0))
    problem('instance', 'instance must be a whole number from 0 (the instance with the lowest port)', 'instance 必须是从 0 起的整数（0 为端口最小的实例）');
  if (fault.instanceId !== undefined) problem('instanceId', 'instanceId is set by the service from instance, never sent', 'instanceId 由服务根据 instance 设置，请求中不得给出');
  if (fault.sparedInstanceId !== undefined)
    problem('sparedInstanceId', 'sparedInstanceId is set by the run from its own instance, never sent', 'sparedInstanceId 由运行根据其所在实例设置，请求中不得给出');
  if (allowed.includes('copies') && fault.copies !== undefined && !(isWholeNumber(fault.copies) && fault.copies >= 2 && fault.copies <= maxCopies))
    problem('copies', `copies must be a whole number from 2 to ${maxCopies}`, `copies 必须是 2 到 ${maxCopies} 之间的整数`);
  if (allowed.includes('idempotencyKey') && fault.idempotencyKey !== undefined && typeof fault.idempotencyKey !== 'boolean')
    problem('idempotencyKey', 'idempotencyKey must be true or false', 'idempotencyKey 必须是 true 或 false');
  return problems;
}

/**
 * Everything wrong with a run's faults, by the service's rules, each naming its request field
 * (`faults`, `faults[<index>].<name>`). The service refuses a run with any (400); the run form checks the
 * same before sending. An empty list: the faults are fine.
 */
export function faultSettingsProblems(faults: unknown): FaultSettingsProblem[] {
  if (faults === undefined) return [];
  if (!Array.isArray(faults)) return [{ field: 'faults', message: { en: 'faults must be a list', 'zh-CN': 'faults 必须是列表' } }];
  if (faults.length > FAULT_LIMITS.maxFaultsPerRun)
    return [{ field: 'faults', message: { en: `a run carries at most ${FAULT_LIMITS.maxFaultsPerRun} faults`, 'zh-CN': `一次运行最多带 ${FAULT_LIMITS.maxFaultsPerRun} 个故障` } }];
  return faults.flatMap((fault: unknown, index) =>
    typeof fault === 'object' && fault !== null && !Array.isArray(fault)
      ? faultProblems(fault as FaultSettings).map(({ field, message }) => ({ field: `faults[${index}].${field}`, message }))
      : [{ field: `faults[${index}]`, message: { en: 'each fault must be an object', 'zh-CN': '每个故障都必须是对象' } }],
  );
}
