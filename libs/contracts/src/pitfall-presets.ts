import type { FaultPointName } from './faults';
import type { LoadProfile, RunParams, RunView } from './runs';
import { unitsSoldTwice } from './stock-outcome';
import type { StrategyName } from './strategies';

/**
 * The documented pitfalls of hand-made distributed locks, each as a preset: a broken side and its fix,
 * run under the same load and the same fault, one after the other. The dashboard's Pitfalls view and
 * `npm run pitfalls` read this one list.
 */

/**
 * What shows a pitfall in a finished run:
 * - 'oversold': more units sold than there were (reconciliation.oversold > 0): the stock ran out and then
 *   some, so a unit sold twice shows even in a run whose moves were not kept;
 * - 'sold-twice': a unit sold twice (unitsSoldTwice > 0), whether or not the stock ran out;
 * - 'exclusion-violations': two holders of one lock at once (reconciliation.exclusionViolations > 0);
 * - 'deadlock': orders gave up waiting for the lock (lock_timeout) while stock was still left: a lock
 *   nobody will ever release;
 * - 'duplicates': more orders than clicks (each click is `copies` requests, see the double-click fault);
 * - 'retry-storm': more failed optimistic version checks than units sold: most of the work is wasted;
 * - 'hot-key': every order queued behind the one lock of one key: within the run, orders gave up waiting
 *   for it (lock_timeout) or the stock was not sold out (a lock held for the business time of each order
 *   in turn sells at most one unit per business time, whatever the connections and instances).
 *
 * A fix that sold a unit twice is never clean, whatever its preset's sign: every fix here claims it never
 * does. Two holders at once alone do not make a fix unclean (the fenced and lock-lost fixes overlap by
 * design and refuse the stale write).
 */
export type PitfallSign = 'oversold' | 'sold-twice' | 'exclusion-violations' | 'deadlock' | 'duplicates' | 'retry-storm' | 'hot-key';

/** A run's settings besides its strategy, as a preset side sends them (POST /api/runs). */
export type PitfallRunSettings = Pick<RunParams, 'initialStock' | 'lockTtlMs' | 'businessDelayMs' | 'segments' | 'faults'> & {
  load: LoadProfile;
};

export interface PitfallSide {
  label: string;
  /** 'broken' should show the pitfall; 'fix' should stay clean of it under the same load and fault. */
  role: 'broken' | 'fix';
  strategy: StrategyName;
  settings: PitfallRunSettings;
}

export interface PitfallPreset {
  name: string;
  title: string;
  /** In the articles' terms: what happens, at which step, and why the fix holds. */
  explanation: { whatHappens: string; atWhichStep: string; whyTheFixHolds: string };
  /** What shows this pitfall in a run (see PitfallSign). */
  shows: PitfallSign;
  sides: PitfallSide[];
}

/** A short, contended load: enough orders at once that a gap in the lock is found, short enough to demo. */
const CONTENDED: LoadProfile = { connections: 40, durationSec: 4 };

/** The same settings on both sides: the comparison is only fair under the same load and the same fault. */
function sides(broken: { label: string; strategy: StrategyName }[], fix: { label: string; strategy: StrategyName }[], settings: PitfallRunSettings): PitfallSide[] {
  return [
    ...broken.map((side) => ({ ...side, role: 'broken' as const, settings })),
    ...fix.map((side) => ({ ...side, role: 'fix' as const, settings })),
  ];
}

/**
 * The first holder is paused at `at` (after its stock write) until the lease has run out and the next
 * holder is halfway through its business time; then its release DELs that holder's lock, and a waiter
 * gets in beside it and reads the stock it has not written yet. Timed from the holding, not hoped for:
 * the lock frees at the lease (1200 ms after the first grant), the next holder's read-to-write window is
 * its 600 ms business time, and the paused release lands at about 600 + 800 = 1400 ms, 200 ms into that
 * window — later by whatever the holder did between its write and the pause (the release's GET comes
 * after the order's INSERT, which a loaded MySQL can take a few hundred ms over: a 400 ms window missed
 * once so), with 400 ms to spare.
 * Every Nth holding instead (every 4th, 600 ms, 300 ms lease) missed 1 in 3: its late DEL mostly hit
 * the next paused holder, which had already written. A mis-deletion shows as oversold only once the
 * stock has sold out (more sold than there was), so the stock is a few units, sold out within the run;
 * few connections, since each waits its turn behind 600 ms holdings.
 */
function pausedPastTheLease(at: FaultPointName): PitfallRunSettings {
  return { initialStock: 5, lockTtlMs: 1200, businessDelayMs: 600, load: { connections: 10, durationSec: 4 }, faults: [{ kind: 'pause', at, once: true, durationMs: 800 }] };
}

/** The list, in its order. */
export const PITFALL_PRESETS: readonly PitfallPreset[] = [
  {
    name: 'expiry-during-business',
    title: 'The business outlives the lease',
    explanation: {
      whatHappens:
        'The lock expires after its TTL while its holder is still between reading and writing the stock; a second order takes the free lock, reads the same stock and both write: one unit is sold twice.',
      atWhichStep: 'Between the stock read and the stock write, once the business time (500 ms) passes the lock TTL (250 ms).',
      whyTheFixHolds: "The watchdog renews the lease every third of the TTL while its holder lives, so the lock never expires under a live holder, however long the business takes.",
    },
    shows: 'oversold',
    sides: sides([{ label: 'uuid-lua, fixed lease', strategy: 'uuid-lua' }], [{ label: 'watchdog, renewed lease', strategy: 'watchdog' }], {
      // A lease long enough for the watchdog's renewals (every TTL/3) to land on a loaded machine: at 50 ms
      // one was late in the e2e and the fix sold a unit twice. Stock the broken side runs out of in 4 s.
      initialStock: 5,
      lockTtlMs: 250,
      businessDelayMs: 500,
      load: CONTENDED,
    }),
  },
  {
    name: 'mis-deletion',
    title: "Deleting someone else's lock",
    explanation: {
      whatHappens:
        "A holder is paused after its write until its lease has run out; another order takes the lock; the first one wakes and DELs the key — the other order's lock — so a third order gets in beside the second.",
      atWhichStep: 'After the stock write, before the release (a pause at stock-written longer than the TTL).',
      whyTheFixHolds:
        "uuid-lua stores a random value per holder and releases with one Lua script that deletes the key only if it still holds that value: a late release deletes nothing. The paused holder's lease still runs out, so its timeline overlaps the next holder's once (one exclusion violation, after its write: nothing is sold twice); what the fix removes is the third order the late DEL let in.",
    },
    shows: 'oversold',
    sides: sides([{ label: 'naive-setnx, DEL on release', strategy: 'naive-setnx' }], [{ label: 'uuid-lua, compare-and-delete', strategy: 'uuid-lua' }], pausedPastTheLease('stock-written')),
  },
  {
    name: 'non-atomic-release',
    title: 'Check, then delete: two commands',
    explanation: {
      whatHappens:
        'The holder GETs the key, sees its own value, and is paused before its DEL; the lease runs out, another order takes the lock, and the DEL that follows removes that order\'s lock, so a third one gets in beside it.',
      atWhichStep: 'Between the compare (GET) and the delete (DEL) of the release: release-checked-before-del.',
      whyTheFixHolds: 'uuid-lua does the compare and the delete in one Lua script, which Redis runs without anything in between: there is no gap to pause in (the fault point is never passed).',
    },
    shows: 'oversold',
    sides: sides([{ label: 'uuid-check-del, GET then DEL', strategy: 'uuid-check-del' }], [{ label: 'uuid-lua, one script', strategy: 'uuid-lua' }], pausedPastTheLease('release-checked-before-del')),
  },
  {
    name: 'crash-between-setnx-and-expire',
    title: 'A crash between SETNX and EXPIRE',
    explanation: {
      whatHappens: 'The process dies after SETNX and before EXPIRE: the key stays with no TTL and no holder, and every later order waits for it until it gives up.',
      atWhichStep: 'Between the two commands of the acquire: lock-set-before-expire.',
      whyTheFixHolds: 'SET key value NX PX ttl sets the key and its expiry in one command: there is no moment where the lock exists without its TTL, so a dead holder\'s lock ends with its lease.',
    },
    shows: 'deadlock',
    sides: sides([{ label: 'setnx-expire, two commands', strategy: 'setnx-expire' }], [{ label: 'naive-setnx, SET NX PX', strategy: 'naive-setnx' }], {
      initialStock: 200,
      lockTtlMs: 500,
      businessDelayMs: 5,
      load: CONTENDED,
      faults: [{ kind: 'crash', at: 'lock-set-before-expire', once: true }],
    }),
  },
  {
    name: 'dead-holder-no-ttl',
    title: 'A dead holder and a lock with no TTL',
    explanation: {
      whatHappens: 'The process holding the lock dies; nothing ever releases a lock without an expiry (a Redis key with no TTL, an owner row in the lock table), so every later order waits until it gives up.',
      atWhichStep: 'While holding: a crash at lock-acquired.',
      whyTheFixHolds: "The watchdog's lease is only renewed by a live holder: once it dies, the lock expires within one TTL and the next order takes it.",
    },
    shows: 'deadlock',
    sides: sides(
      [
        { label: 'setnx-no-ttl', strategy: 'setnx-no-ttl' },
        { label: 'db-lock-table, owner row', strategy: 'db-lock-table' },
      ],
      [{ label: 'watchdog, renewed lease', strategy: 'watchdog' }],
      { initialStock: 200, lockTtlMs: 500, businessDelayMs: 5, load: CONTENDED, faults: [{ kind: 'crash', at: 'lock-acquired', once: true }] },
    ),
  },
  {
    name: 'getset-clock-skew',
    title: 'GETSET and clocks that disagree',
    explanation: {
      whatHappens:
        "The lock's value is its expiry time by the holder's clock; an instance whose clock runs ahead reads a live lock as expired, GETSETs it and takes it while its holder is still inside.",
      atWhichStep: 'At the acquire, where a waiter compares the stored stamp with its own "now" (stamp-read-before-getset).',
      whyTheFixHolds: "uuid-lua never compares clocks: Redis expires the key by its own clock, and a waiter only gets the lock once the key is gone.",
    },
    shows: 'oversold',
    sides: sides([{ label: 'setnx-getset, stamps', strategy: 'setnx-getset' }], [{ label: 'uuid-lua, Redis-side TTL', strategy: 'uuid-lua' }], {
      initialStock: 40,
      lockTtlMs: 1000,
      businessDelayMs: 20,
      load: CONTENDED,
      faults: [{ kind: 'clock-offset', offsetMs: 5000, instance: 0 }],
    }),
  },
  {
    name: 'gc-pause-past-the-lease',
    title: 'A GC pause past the lease',
    explanation: {
      whatHappens:
        "The holder's whole process stops (a stop-the-world pause, like a long GC) after it read the stock; its watchdog freezes with it, so the lease runs out and another instance takes the lock and sells; the paused holder wakes and writes the stock it read before: units sold twice.",
      atWhichStep: 'While holding, between the stock read and the stock write (stop-the-world at stock-read, longer than the TTL, at the first holding of the run).',
      whyTheFixHolds:
        "Kleppmann's fencing token: each grant is numbered; the stock remembers the highest token it has seen and refuses a lower one, so the stale holder's write is refused (outcome fenced) even though the lock did let two holders in.",
    },
    shows: 'oversold',
    sides: sides([{ label: 'watchdog, no fence', strategy: 'watchdog' }], [{ label: 'watchdog-fenced, fencing tokens', strategy: 'watchdog-fenced' }], {
      // Leases with room for the watchdog's renewals on a loaded machine (one landed late at 50 ms in the e2e).
      // No business time after the read: with one, the watchdog's overdue renewal runs first after the
      // pause, finds the lock gone and its lock-lost signal stops the holder (lock_lost) before it writes.
      initialStock: 40,
      lockTtlMs: 500,
      businessDelayMs: 0,
      load: CONTENDED,
      // Once, at the run's first holding, on whichever instance has it: the other instance then sells the
      // rest while the first is frozen, and the stale write puts that stock back to be sold again. Every
      // 10th holding on instance 0 did not fire in 1 run of 3: the watchdog passes the lock down one
      // process's line up to 16 times in a row, so instance 0 can get fewer than 10 of the 40 units.
      faults: [{ kind: 'stop-the-world', at: 'stock-read', once: true, durationMs: 1500 }],
    }),
  },
  {
    name: 'lost-lock-on-store-cut',
    title: 'The lock lost while the store was out of reach',
    explanation: {
      whatHappens:
        'Redis is out of reach from one instance for longer than the lease: its holder cannot renew, the lock expires and another instance takes it; when the store comes back, a holder that never noticed writes the stock it read before the cut.',
      atWhichStep: 'While holding, after the stock read (a store cut at stock-read, longer than the TTL, at the first holding of the run).',
      whyTheFixHolds: "The watchdog's failed renewal raises its lock-lost signal to the holder, which gives the order up (outcome lock_lost) instead of writing under a lock it no longer has.",
    },
    shows: 'oversold',
    sides: sides([{ label: 'uuid-lua, no lost signal', strategy: 'uuid-lua' }], [{ label: 'watchdog, lock-lost signal', strategy: 'watchdog' }], {
      initialStock: 40,
      lockTtlMs: 500,
      businessDelayMs: 30,
      load: CONTENDED,
      // Once, at the run's first holding: the cut holder's stale write then comes early, with the load still
      // running to sell the stock it put back (oversold counts only what is sold beyond the stock). Every
      // 10th holding on instance 0 came late on a loaded machine: its stale write landed after the load
      // and the units it put back stayed unsold (sold 40 of 40, oversold 0).
      faults: [{ kind: 'store-cut', at: 'stock-read', once: true, durationMs: 1500 }],
    }),
  },
  {
    name: 'optimistic-retry-storm',
    title: 'An optimistic retry storm',
    explanation: {
      whatHappens: 'Every order reads the row\'s version, and all but one of the orders that read it together fail the version check and go round again: under contention most rounds are wasted.',
      atWhichStep: 'At the UPDATE … WHERE version = :v, whose affected-row count is 0 for every order but one.',
      whyTheFixHolds: 'db-conditional writes UPDATE … SET stock = stock - :n WHERE stock >= :n: the row lock orders the updates and none of them is ever retried.',
    },
    shows: 'retry-storm',
    sides: sides([{ label: 'db-optimistic, version check', strategy: 'db-optimistic' }], [{ label: 'db-conditional, one UPDATE', strategy: 'db-conditional' }], {
      initialStock: 200,
      load: { connections: 60, durationSec: 4 },
    }),
  },
  {
    name: 'hot-key',
    title: 'A hot key behind one lock',
    explanation: {
      whatHappens:
        'Every order for the product needs the one lock of its one stock key, so however many instances and connections there are, orders go through one at a time: at most one unit per business time (500 ms: 2 a second). The run ends with stock left unsold while buyers were queued for the lock.',
      atWhichStep: "At the acquire: every order but the holder's waits on the one lock key through each holder's whole critical section (read, business time, write, order).",
      whyTheFixHolds:
        'segmented splits the stock over 20 keys, each behind its own owner-token lock: up to 20 orders are inside at once, each on its own segment, so the same load sells the stock out — and no unit is sold twice, since each segment is still a uuid-lua lock held for less than its lease.',
    },
    shows: 'hot-key',
    sides: sides([{ label: 'uuid-lua, one lock', strategy: 'uuid-lua' }], [{ label: 'segmented, 20 locks', strategy: 'segmented' }], {
      // One lock sells at most 4 s / 500 ms + 20 orders still in flight = 28 units: 40 never sell out,
      // however fast the machine. 20 segments could sell 20 times that; they need 20 of the 40 within the
      // 4 s (the last 20 can be the orders in flight), 5 a second. The cost is in the business time, not
      // CPU: on a 2-core machine at load 15 the orders ran at ~20 a second CPU-bound, and with 200 ms and
      // 40 connections the fix then had to sell 40 in 4 s and once sold 73 of 80. A lease far above the
      // business time, so that load never expires it.
      initialStock: 40,
      lockTtlMs: 3000,
      businessDelayMs: 500,
      segments: 20,
      load: { connections: 20, durationSec: 4 },
    }),
  },
  {
    name: 'double-click',
    title: 'The double click',
    explanation: {
      whatHappens: 'The shopper clicks twice; both requests arrive at once and, with nothing to tell them apart, each becomes an order: one click, two orders.',
      atWhichStep: 'Before any lock: the two requests are two orders to the service.',
      whyTheFixHolds: 'Both copies carry one idempotency key: the first makes the order, the second is answered with that same order (replayed), so one click is one order.',
    },
    shows: 'duplicates',
    sides: [
      {
        label: 'without an idempotency key',
        role: 'broken',
        strategy: 'lua-decrement',
        settings: { initialStock: 10_000, load: { connections: 20, totalRequests: 400 }, faults: [{ kind: 'double-click', copies: 2, idempotencyKey: false }] },
      },
      {
        label: 'with an idempotency key',
        role: 'fix',
        strategy: 'lua-decrement',
        settings: { initialStock: 10_000, load: { connections: 20, totalRequests: 400 }, faults: [{ kind: 'double-click', copies: 2, idempotencyKey: true }] },
      },
    ],
  },
  {
    name: 'redlock-node-restart',
    title: 'A RedLock node restarted without persistence',
    explanation: {
      whatHappens:
        "The first order wins the lock on three of the five nodes: a stranger's grant, left by a client that died part-way through its acquire, holds the other two. One of its three nodes restarts and, keeping nothing on disk, forgets the grant, and the stranger's grants end. The three nodes that do not hold the lock are a majority: a second order wins them while the first is still inside, both read the last unit and both sell it (Kleppmann's sequence).",
      atWhichStep:
        "Right after the lock is granted (a node-restart at lock-acquired, at the first holding of the run): the stranger's grants set at the run's reset, one of the holder's nodes restarted there, the fault over once it serves again.",
      whyTheFixHolds:
        "redis.io's delayed restarts, kept by the clients: a node votes for a lease only once it has been up that long, so the restarted node sits out the holder's lease and the second order finds two free voters, no majority. Persistence with fsync always closes it too (the node comes back with the grant; libs/locks redlock.int-spec); a fencing token cannot, for RedLock has no counter to issue one.",
    },
    shows: 'oversold',
    sides: sides([{ label: 'redlock, nodes without persistence', strategy: 'redlock' }], [{ label: 'redlock-delayed-restart', strategy: 'redlock-delayed-restart' }], {
      // One unit, as in master-failover: two holders sell it twice once both read it before either writes.
      // The holder's read-to-write window is its business time (2 s) from the restarted node serving;
      // the waiters take the three free nodes within it, though with few of them: RedLock's waiters
      // retry on their own and split the votes (grant rate slow). A lease that covers the restart and
      // the business time, so nothing expires and what shows is the restart alone.
      initialStock: 1,
      lockTtlMs: 6000,
      businessDelayMs: 2000,
      load: { connections: 4, durationSec: 6 },
      faults: [{ kind: 'node-restart', at: 'lock-acquired', once: true }],
    }),
  },
  {
    name: 'master-failover',
    title: 'The lock lost in a master–replica failover',
    explanation: {
      whatHappens:
        "Redis replicates asynchronously: the lock key is on the master when SET answers, not yet on its replica. The master dies in that gap, Sentinel promotes the replica, which never saw the lock, and it grants the same lock to a second order while the first holder is still inside: both read the last unit and both sell it.",
      atWhichStep: 'Right after the lock is granted (a failover at lock-acquired, at the first holding of the run): the replica held back from the run\'s start, the master shut down there, the fault over once Sentinel has promoted the replica.',
      whyTheFixHolds:
        "No lock on a replicated master survives this, the fenced one included: its counter is lost with the master and the second holder is given the first one's token again. The fenced MySQL row also records which holding brought its token, so it lets in only the first of the two holders that carry it: the other is answered fenced and nothing is sold twice. RedLock has no master to lose: the same fault restarts one of its five nodes without its data, one the holder can lose and keep a majority (one of its own when it holds four or five, another when its votes split three to two), so the second order wins two nodes at most and is refused. Losing one of exactly three is RedLock's own restart pitfall: the redlock-node-restart preset.",
    },
    shows: 'oversold',
    sides: sides(
      [
        { label: 'uuid-lua on a Sentinel master', strategy: 'uuid-lua' },
        { label: 'watchdog on a Sentinel master', strategy: 'watchdog' },
      ],
      [
        { label: 'watchdog-fenced-mysql, fenced row', strategy: 'watchdog-fenced-mysql' },
        { label: 'redlock, one node of five lost', strategy: 'redlock' },
      ],
      {
        // One unit: the two holders sell it twice as soon as both read it before either writes, whatever
        // the rest of the run does. The first holder's read-to-write window is its business time (1 s)
        // from the moment the promoted master serves, and the other orders, which the failover turned
        // away, take the lock there within ~100 ms of it (the lock clients reconnect every 100 ms, the
        // watchdog's sleeping waiters wake when their subscription comes back). A lease far longer than
        // the failover (1–4 s) and the business time: nothing expires and the watchdog's first renewal
        // (lease / 3) comes after the first holder's write, so what shows is the failover alone. The load
        // outlasts a slow failover (a split vote waits 4 s), so there are orders to take the lock after it.
        initialStock: 1,
        lockTtlMs: 30_000,
        businessDelayMs: 1000,
        load: { connections: 10, durationSec: 6 },
        faults: [{ kind: 'failover', at: 'lock-acquired', once: true }],
      },
    ),
  },
];

export function findPitfallPreset(name: string): PitfallPreset | undefined {
  return PITFALL_PRESETS.find((preset) => preset.name === name);
}

/** What a side sends to POST /api/runs; the scenario names the preset (the API takes word characters and dashes). */
export function pitfallRunParams(side: PitfallSide, presetName: string): RunParams {
  return { strategy: side.strategy, ...side.settings, scenario: `pitfall-${presetName}` };
}

/**
 * Whether a finished run shows the preset's pitfall: the broken side should (true), the fix should not
 * (false). A run without a result shows nothing. The side is passed for the signs that read its settings
 * (a click is `copies` requests).
 */
export function pitfallShown(preset: PitfallPreset, side: PitfallSide, run: RunView): boolean {
  const result = run.result;
  if (!result) return false;
  const { reconciliation, counts } = result;
  switch (preset.shows) {
    case 'oversold':
      return reconciliation.oversold > 0;
    case 'sold-twice':
      return unitsSoldTwice(reconciliation) > 0;
    case 'exclusion-violations':
      return reconciliation.exclusionViolations > 0;
    case 'deadlock':
      return counts.lock_timeout > 0 && reconciliation.remaining > 0;
    case 'duplicates': {
      // The load tool sends totalRequests clicks, each as `copies` requests at once.
      const clicks = side.settings.load.totalRequests ?? 0;
      return reconciliation.orders > clicks;
    }
    case 'retry-storm':
      return result.conflictRetries > reconciliation.sold;
    case 'hot-key':
      return counts.lock_timeout > 0 || reconciliation.remaining > 0;
  }
}

/**
 * What one side of a preset came to: still going, failed, or — once completed — whether it did what its
 * role says: the broken side showed the pitfall, or did not (missed); the fix stayed clean, or did not.
 * The dashboard's Pitfalls view and `npm run pitfalls` count by it.
 */
export type PitfallVerdict = 'pending' | 'failed' | 'showed' | 'missed' | 'clean' | 'not-clean';

export function pitfallVerdict(preset: PitfallPreset, side: PitfallSide, run: RunView | undefined): PitfallVerdict {
  if (!run || run.status === 'queued' || run.status === 'running' || !run.result) return run?.status === 'failed' ? 'failed' : 'pending';
  const shown = pitfallShown(preset, side, run);
  if (side.role === 'broken') return shown ? 'showed' : 'missed';
  return shown || unitsSoldTwice(run.result.reconciliation) > 0 ? 'not-clean' : 'clean';
}

/** The verdicts a presenter wants to see: the broken side showing its pitfall, the fix staying clean. */
export function isExpectedVerdict(verdict: PitfallVerdict): boolean {
  return verdict === 'showed' || verdict === 'clean';
}
