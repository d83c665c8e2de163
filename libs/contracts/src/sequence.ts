import type { FaultEvent } from './faults';

/**
 * One message of a sequence diagram, in time order: who (an order, A B C …) does what to whom (the lock,
 * a RedLock node, the stock, the store's expiry or clock, or a fault that hits it), with the value read,
 * written or answered. The model checker's counterexamples and a live run's trace are both lists of these,
 * so a model's interleaving can be drawn beside the run's.
 */
export interface SequenceStep {
  actor: string;
  /** 'lock', 'node1' … 'node5', 'stock', 'orders', 'expiry', 'clock' or 'fault'. */
  target: string;
  /** The command or event: 'SET NX PX', 'GET', 'granted', 'released', 'lease ran out', a fault kind ('stop-the-world'). */
  action: string;
  /** The stock read or written, the reply (OK, nil, 0, 1), or the order whose lock a command touched. */
  value?: number | string;
  /** A fault point ('stock-read') or a remark ('not-its-own', 'sold-twice', 'waits'), as a code to put in words. */
  note?: string;
  /** A run's step only: when it happened, epoch ms with fractions (the model has no time). */
  at?: number;
  /** A run's step only: the instance the order ran on. */
  instance?: string;
}

/** An order of a run's trace: the letter it is drawn as and its request id. */
export interface TracedOrder {
  actor: string;
  requestId: string;
  instance: string;
}

/**
 * Why a run went wrong, step by step, from its own trace: the first unit sold twice (the orders that
 * wrote from the same read, and those that let the second in beside the first), a deadlock (the holder that
 * never let go and the first waiters that timed out on it), a retry storm (one order's failed version
 * checks and the sales that moved the version under it) or a hot key (the line of orders behind one
 * lock: who held it when, who gave up).
 */
export interface RunTrace {
  kind: 'double-sale' | 'deadlock' | 'retry-storm' | 'hot-key';
  orders: TracedOrder[];
  /** In time order; the second sale of the unit carries the note 'sold-twice'. */
  steps: SequenceStep[];
  /** The stock left that both sales wrote (a double sale only). */
  stockLeft?: number;
  /** The order a retry storm or a hot key is about (its letter): the one whose version checks failed, or the one that waited in line. */
  focus?: string;
}

/** What the run's books say besides the trace, for the trace of its pitfall. */
export interface RunTraceInputs {
  /** Every traced step of the run, from every instance, in any order; actor: the request id. */
  steps: readonly SequenceStep[];
  faults?: readonly TraceFault[];
  /** The moves journal's first unit sold twice; without a journal (a MySQL row) the trace's own writes are compared. */
  sameRead?: { stockLeft: number; requestIds: readonly string[] };
  /** The journal exists but named no unit sold twice (or cannot, with segments): no double sale is looked for in the steps. */
  journalSaysNone?: boolean;
  /** Orders that timed out waiting for the lock, and stock left: a deadlock's signs, and (either) a hot key's. */
  lockTimeouts: number;
  remaining: number;
  /** Failed version checks and units sold: a retry storm's sign (more retries than sales). */
  conflictRetries?: number;
  sold?: number;
}

/** Of a fault event, what the trace draws. */
type TraceFault = Pick<FaultEvent, 'kind' | 'at' | 'instance' | 'requestId' | 'startedAt' | 'endedAt'>;

/**
 * A run trace's window on one instance (TRACED_ORDERS): the first orders of each run whose steps it
 * records, by default, and at most (enough to trace every order of a bench's run; 0 turns it off).
 */
export const TRACE_WINDOW = { defaultOrders: 512, maxOrders: 100_000 } as const;

/** At most this many orders in a deadlock, a retry storm or a hot key's line. */
const MAX_TRACED_ORDERS = 6;
/**
 * A double sale's orders: the pair and the one or two that let the second in. With the lock and stock keys,
 * six lifelines: what the Lab's column holds at 1280 px with the text legible.
 */
const DOUBLE_SALE_ORDERS = 4;
/** Waiters drawn timing out behind a dead holder. */
const DEADLOCK_WAITERS = 2;
/** A hot key's line: at most this many of its holders are drawn, leaving room for the waiter and others who waited. */
const LINE_HOLDERS = MAX_TRACED_ORDERS - 2;

/** An order's request for the lock: the step the hot key's line is drawn from, left out of the other traces. */
const isRequest = (step: SequenceStep) => step.target === 'lock' && step.action === 'requested';
/** A failed optimistic version check: the UPDATE … WHERE version = v (note 'version:v') that changed 0 rows (value). */
const isFailedCheck = (step: SequenceStep) => step.target === 'stock' && step.action === 'UPDATE' && step.value === 0;

/**
 * The trace of a run's pitfall: the first unit sold twice (the orders that wrote from the same read, and
 * those that let the second in beside the first, with the faults that hit them), or, with none, a
 * deadlock (a holder granted and never released, and the first waiters timing out). Orders are lettered
 * A, B, C in the order they first act, as the model checker letters its processes. A plain DEL by a
 * holder whose lease had run out while another order held the lock is drawn as what it was: the removal
 * of that order's lock (value: its letter, note 'not-its-own'). Without either: a retry storm when more
 * version checks failed than units sold, else a hot key when orders gave up on the lock or stock was
 * left — the signs the Pitfalls view judges by (PitfallSign). An order's request for the lock is drawn
 * in the hot key's line only.
 */
export function traceOfRun({ steps, faults = [], sameRead, journalSaysNone = false, lockTimeouts, remaining, conflictRetries = 0, sold = 0 }: RunTraceInputs): RunTrace | undefined {
  const byOrder = new Map<string, SequenceStep[]>();
  for (const step of [...steps].sort((a, b) => (a.at ?? 0) - (b.at ?? 0))) {
    let list = byOrder.get(step.actor);
    if (!list) byOrder.set(step.actor, (list = []));
    list.push(step);
  }
  const sale = journalSaysNone ? undefined : (sameRead ? { stockLeft: sameRead.stockLeft, requestIds: sameRead.requestIds.filter((id) => byOrder.has(id)) } : sameWrite(byOrder));
  if (sale && sale.requestIds.length >= 2) return doubleSale(byOrder, faults, sale.stockLeft, sale.requestIds);
  const dead = lockTimeouts > 0 && remaining > 0 ? deadlock(byOrder, faults) : undefined;
  if (dead) return dead;
  if (conflictRetries > sold) return retryStorm(byOrder, faults);
  if (lockTimeouts > 0 || remaining > 0) return hotKey(byOrder, faults);
  return undefined;
}

/** Without a journal: the first stock value two orders wrote (the earliest second write). */
function sameWrite(byOrder: ReadonlyMap<string, SequenceStep[]>): { stockLeft: number; requestIds: string[] } | undefined {
  const writers = new Map<number, { ids: string[]; secondAt: number }>();
  for (const [id, list] of byOrder) {
    for (const step of list) {
      if (!isSale(step)) continue;
      const entry = writers.get(step.value as number) ?? { ids: [], secondAt: Infinity };
      if (!entry.ids.includes(id)) entry.ids.push(id);
      if (entry.ids.length === 2) entry.secondAt = step.at ?? 0;
      writers.set(step.value as number, entry);
    }
  }
  let first: { stockLeft: number; requestIds: string[]; at: number } | undefined;
  for (const [stockLeft, { ids, secondAt }] of writers) if (ids.length > 1 && (!first || secondAt < first.at)) first = { stockLeft, requestIds: ids, at: secondAt };
  return first && { stockLeft: first.stockLeft, requestIds: first.requestIds };
}

/** A stock write that took: a SET with its value, not refused by a fence or skipped for a lost lock. */
const isSale = (step: SequenceStep) => step.target === 'stock' && step.action === 'SET' && typeof step.value === 'number' && step.note === undefined;

function span(list: readonly SequenceStep[]): [number, number] {
  return [list[0].at ?? 0, list[list.length - 1].at ?? 0];
}

/**
 * The first unit sold twice, as few orders as tell it: the first two to write that stock (the pair), those
 * that let the second in beside the first (a holder whose late release deleted a seller's lock, an order a
 * fault held up in that window), then any others that wrote the same read. A holder whose lease ran out is
 * a seller itself: it read before the next one got in. Cut at the second sale, but for what the orders
 * holding the lock then did until they let it go (the third sale from that read, the late release). The
 * orders' INSERTs are left out: they explain nothing of the sale, and their table's lifeline would not fit.
 */
function doubleSale(byOrder: ReadonlyMap<string, SequenceStep[]>, faults: readonly TraceFault[], stockLeft: number, sellers: readonly string[]): RunTrace {
  const sales = sellers
    .flatMap((id) => byOrder.get(id)!.filter((s) => isSale(s) && s.value === stockLeft).map((s) => ({ id, at: s.at ?? 0 })))
    .sort((a, b) => a.at - b.at);
  const pair = [...new Set(sales.map((s) => s.id))].slice(0, 2);
  // Without two such writes in the trace (the journal saw them, the trace did not): every seller's whole span.
  const involved = pair.length === 2 ? pair : sellers;
  const from = Math.min(...involved.map((id) => span(byOrder.get(id)!)[0]));
  const to = pair.length === 2 ? sales.find((s) => s.id === pair[1])!.at : Math.max(...involved.map((id) => span(byOrder.get(id)!)[1]));
  const inWindow = (at: number) => at >= from && at <= to;
  const all = [...byOrder.values()].flat().sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
  const deleters = misdeletions(all).filter(({ release, victim }) => sellers.includes(victim) && inWindow(release.at ?? 0)).map(({ release }) => release.actor);
  const heldUp = faults.filter((f) => f.requestId !== null && f.startedAt <= to && (f.endedAt ?? f.startedAt) >= from).map((f) => f.requestId!);
  const ids = [...new Set([...involved, ...deleters, ...heldUp, ...sellers])].slice(0, Math.max(involved.length, DOUBLE_SALE_ORDERS));
  const trace = lettered(byOrder, faults, ids, (step) => isRequest(step) || step.target === 'orders');
  const secondSale = trace.steps.filter((s) => isSale(s) && s.value === stockLeft && trace.orders.some((o) => o.actor === s.actor && sellers.includes(o.requestId)))[1];
  if (!secondSale) return { kind: 'double-sale', ...trace, stockLeft };
  secondSale.note = 'sold-twice';
  return { kind: 'double-sale', orders: trace.orders, steps: cutAfter(trace.steps, trace.steps.indexOf(secondSale)), stockLeft };
}

/** The steps up to `last`, then only those of orders holding the lock at it, each until it lets the lock go. */
function cutAfter(steps: readonly SequenceStep[], last: number): SequenceStep[] {
  const holding = new Set<string>();
  for (const step of steps.slice(0, last + 1)) {
    if (step.target !== 'lock') continue;
    if (step.action === 'granted') holding.add(step.actor);
    else if (endsHolding(step)) holding.delete(step.actor);
  }
  const after = steps.slice(last + 1).filter((step) => {
    if (!holding.has(step.actor)) return false;
    if (step.target === 'lock' && endsHolding(step)) holding.delete(step.actor);
    return true;
  });
  return [...steps.slice(0, last + 1), ...after];
}

const endsHolding = (step: SequenceStep) => step.action === 'released' || step.action === 'DEL' || step.action === 'timed out';

function deadlock(byOrder: ReadonlyMap<string, SequenceStep[]>, faults: readonly TraceFault[]): RunTrace | undefined {
  const holders: [string, number][] = [...byOrder].filter(([, list]) => list.some((s) => s.action === 'granted') && !list.some((s) => s.action === 'released')).map(([id, list]) => [id, span(list)[0]]);
  // A holder killed by a crash fault took its unflushed steps with it: its crash, recorded before it died, stands for them.
  for (const fault of faults) if (fault.kind === 'crash' && fault.requestId && !byOrder.has(fault.requestId)) holders.push([fault.requestId, fault.startedAt]);
  if (!holders.length) return undefined;
  const [holder, grantedAt] = holders.reduce((a, b) => (a[1] <= b[1] ? a : b));
  const waiters = [...byOrder]
    .filter(([, list]) => list.some((s) => s.action === 'timed out' && (s.at ?? 0) >= grantedAt))
    .sort((a, b) => span(a[1])[0] - span(b[1])[0])
    .slice(0, DEADLOCK_WAITERS)
    .map(([id]) => id);
  if (!waiters.length) return undefined;
  return { kind: 'deadlock', ...lettered(byOrder, faults, [holder, ...waiters], isRequest) };
}

/**
 * The traced order with the most failed version checks (the earliest of equals), and the orders whose
 * sales beat it: each sold between one of its reads and that read's failed UPDATE.
 */
function retryStorm(byOrder: ReadonlyMap<string, SequenceStep[]>, faults: readonly TraceFault[]): RunTrace | undefined {
  let loser: { id: string; failed: number } | undefined;
  for (const [id, list] of byOrder) {
    const failed = list.filter(isFailedCheck).length;
    if (failed > (loser?.failed ?? 0)) loser = { id, failed };
  }
  if (!loser) return undefined;
  const windows: [number, number][] = [];
  let readAt: number | undefined;
  for (const step of byOrder.get(loser.id)!) {
    if (step.target === 'stock' && step.action === 'GET') readAt = step.at ?? 0;
    else if (isFailedCheck(step) && readAt !== undefined) windows.push([readAt, step.at ?? 0]);
  }
  const winners = [...byOrder]
    .flatMap(([id, list]) => (id === loser.id ? [] : list.filter((s) => isSale(s) && windows.some(([from, to]) => (s.at ?? 0) >= from && (s.at ?? 0) <= to)).map((s) => ({ id, at: s.at ?? 0 }))))
    .sort((a, b) => a.at - b.at)
    .map((w) => w.id);
  const ids = [loser.id, ...new Set(winners)].slice(0, MAX_TRACED_ORDERS);
  return focused('retry-storm', lettered(byOrder, faults, ids, isRequest), loser.id);
}

/** An order's wait for the lock: from its request to its grant, or to its giving up. */
interface Wait {
  id: string;
  from: number;
  to: number;
  gaveUp: boolean;
  grantedAt?: number;
  releasedAt?: number;
}

function waitOf(id: string, list: readonly SequenceStep[]): Wait | undefined {
  const requested = list.find(isRequest);
  const end = list.find((s) => s.target === 'lock' && (s.action === 'granted' || s.action === 'timed out'));
  if (!requested || !end) return undefined;
  const released = list.find((s) => s.target === 'lock' && s.action === 'released');
  return { id, from: requested.at ?? 0, to: end.at ?? 0, gaveUp: end.action === 'timed out', ...(end.action === 'granted' ? { grantedAt: end.at ?? 0, releasedAt: released?.at ?? Infinity } : {}) };
}

/**
 * The line behind the lock at its worst: the first order that gave up waiting (else the one that waited
 * longest), the orders that held the lock one after another while it waited, and others that waited too
 * (those that gave up first).
 */
function hotKey(byOrder: ReadonlyMap<string, SequenceStep[]>, faults: readonly TraceFault[]): RunTrace | undefined {
  const waits = [...byOrder].map(([id, list]) => waitOf(id, list)).filter((w): w is Wait => !!w);
  const gaveUp = waits.filter((w) => w.gaveUp).sort((a, b) => a.to - b.to);
  const waiter = gaveUp[0] ?? [...waits].sort((a, b) => b.to - b.from - (a.to - a.from))[0];
  if (!waiter) return undefined;
  const holders = waits
    .filter((w) => w.grantedAt !== undefined && w.id !== waiter.id && w.grantedAt <= waiter.to && w.releasedAt! >= waiter.from)
    .sort((a, b) => a.grantedAt! - b.grantedAt!)
    .slice(0, LINE_HOLDERS);
  if (!holders.length) return undefined;
  const others = waits
    .filter((w) => w !== waiter && !holders.includes(w) && w.from <= waiter.to && w.to >= waiter.from)
    .sort((a, b) => Number(b.gaveUp) - Number(a.gaveUp) || a.from - b.from);
  const ids = [...holders, waiter, ...others].slice(0, MAX_TRACED_ORDERS).map((w) => w.id);
  return focused('hot-key', lettered(byOrder, faults, ids), waiter.id);
}

function focused(kind: RunTrace['kind'], trace: Pick<RunTrace, 'orders' | 'steps'>, requestId: string): RunTrace {
  return { kind, ...trace, focus: trace.orders.find((o) => o.requestId === requestId)?.actor };
}

/** The steps of these orders (but those `left` out) and the faults that hit them, in time order, the orders lettered by their first step. */
function lettered(byOrder: ReadonlyMap<string, SequenceStep[]>, faults: readonly TraceFault[], ids: readonly string[], left?: (step: SequenceStep) => boolean): Pick<RunTrace, 'orders' | 'steps'> {
  const faultSteps: SequenceStep[] = faults
    .filter((f) => f.requestId !== null && ids.includes(f.requestId))
    .flatMap((f) => {
      const hit: SequenceStep = { actor: f.requestId!, target: 'fault', action: f.kind, at: f.startedAt, instance: f.instance, ...(f.at ? { note: f.at } : {}) };
      return f.endedAt === null ? [hit] : [hit, { actor: f.requestId!, target: 'fault', action: 'resumes', at: f.endedAt, instance: f.instance }];
    });
  const all = [...ids.flatMap((id) => (byOrder.get(id) ?? []).filter((step) => !left?.(step))), ...faultSteps].sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
  const letters = new Map<string, string>();
  const orders: TracedOrder[] = [];
  for (const step of all) {
    if (letters.has(step.actor)) continue;
    const actor = String.fromCharCode('A'.charCodeAt(0) + letters.size);
    letters.set(step.actor, actor);
    orders.push({ actor, requestId: step.actor, instance: byOrder.get(step.actor)?.[0]?.instance ?? step.instance ?? '' });
  }
  const drawn = all.map((step) => ({ ...step, actor: letters.get(step.actor)! }));
  markMisdeletions(drawn);
  return { orders, steps: drawn };
}

/**
 * A plain DEL ('unknown': the lock cannot tell whose it removed) by a holder whose lease had run out,
 * while another order had been granted the lock since and not released it: it removed that order's lock.
 * Steps in time order; the victim is named as the steps name their actors.
 */
function misdeletions(steps: readonly SequenceStep[]): { release: SequenceStep; victim: string }[] {
  const found: { release: SequenceStep; victim: string }[] = [];
  let holder: string | null = null;
  for (const step of steps) {
    if (step.target !== 'lock') continue;
    if (step.action === 'granted') holder = step.actor;
    else if (step.action === 'released') {
      const removed = step.value === 'unknown' && step.note === 'expired' && holder !== null && holder !== step.actor;
      if (removed) found.push({ release: step, victim: holder! });
      if (removed || holder === step.actor) holder = null;
    }
  }
  return found;
}

/** Each mis-deletion drawn as what it was: the DEL of that order's lock (value: its letter, note 'not-its-own'). */
function markMisdeletions(steps: SequenceStep[]): void {
  for (const { release, victim } of misdeletions(steps)) Object.assign(release, { action: 'DEL', value: victim, note: 'not-its-own' });
}
