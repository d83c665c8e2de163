import type { FaultPointName } from './faults';
import type { Localized } from './locale';
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
  /** Unique within its preset; its English text names the side in `npm run pitfalls`' report. */
  label: Localized;
  /** 'broken' should show the pitfall; 'fix' should stay clean of it under the same load and fault. */
  role: 'broken' | 'fix';
  strategy: StrategyName;
  settings: PitfallRunSettings;
}

/** In the articles' terms: what happens, at which step, and why the fix holds. */
export interface PitfallExplanation {
  whatHappens: Localized;
  atWhichStep: Localized;
  whyTheFixHolds: Localized;
}

/** Sides run under the same settings and judged by one sign: a preset's, or a lesson's lab runs. */
export interface PitfallExperiment {
  /** What shows this pitfall in a run (see PitfallSign). */
  shows: PitfallSign;
  sides: PitfallSide[];
}

export interface PitfallPreset extends PitfallExperiment {
  name: string;
  title: Localized;
  explanation: PitfallExplanation;
}

/** A short, contended load: enough orders at once that a gap in the lock is found, short enough to demo. */
const CONTENDED: LoadProfile = { connections: 40, durationSec: 4 };

/** The same settings on both sides: the comparison is only fair under the same load and the same fault. */
export function sameSettingsSides(broken: { label: Localized; strategy: StrategyName }[], fix: { label: Localized; strategy: StrategyName }[], settings: PitfallRunSettings): PitfallSide[] {
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
    title: { en: 'The business outlives the lease', 'zh-CN': '业务比租约活得更久' },
    explanation: {
      whatHappens: {
        en: 'The lock expires after its TTL while its holder is still between reading and writing the stock; a second order takes the free lock, reads the same stock and both write: one unit is sold twice.',
        'zh-CN': '持有者还在读库存和写库存之间时，锁已按 TTL 过期；第二笔订单拿到空出来的锁，读到同样的库存，两者都写入：同一件库存被卖了两次。',
      },
      atWhichStep: {
        en: 'Between the stock read and the stock write, once the business time (500 ms) passes the lock TTL (250 ms).',
        'zh-CN': '在读库存与写库存之间，一旦业务耗时（500 ms）超过锁 TTL（250 ms）。',
      },
      whyTheFixHolds: {
        en: "The watchdog renews the lease every third of the TTL while its holder lives, so the lock never expires under a live holder, however long the business takes.",
        'zh-CN': '只要持有者活着，看门狗每过 TTL 的三分之一就为租约续期一次，所以无论业务耗时多长，锁都不会在活着的持有者手里过期。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides([{ label: { en: 'uuid-lua, fixed lease', 'zh-CN': 'uuid-lua，固定租约' }, strategy: 'uuid-lua' }], [{ label: { en: 'watchdog, renewed lease', 'zh-CN': 'watchdog，续期租约' }, strategy: 'watchdog' }], {
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
    title: { en: "Deleting someone else's lock", 'zh-CN': '误删别人的锁' },
    explanation: {
      whatHappens: {
        en: "A holder is paused after its write until its lease has run out; another order takes the lock; the first one wakes and DELs the key — the other order's lock — so a third order gets in beside the second.",
        'zh-CN': '持有者在写入之后被暂停，直到租约到期；另一笔订单拿到锁；第一个持有者醒来后 DEL 掉这个 key——也就是另一笔订单的锁——于是第三笔订单与第二笔同时进入。',
      },
      atWhichStep: {
        en: 'After the stock write, before the release (a pause at stock-written longer than the TTL).',
        'zh-CN': '写库存之后、释放之前（在 stock-written 处停顿，时长超过 TTL）。',
      },
      whyTheFixHolds: {
        en: "uuid-lua stores a random value per holder and releases with one Lua script that deletes the key only if it still holds that value: a late release deletes nothing. The paused holder's lease still runs out, so its timeline overlaps the next holder's once (one exclusion violation, after its write: nothing is sold twice); what the fix removes is the third order the late DEL let in.",
        'zh-CN': 'uuid-lua 为每个持有者存一个随机值，释放时用一个 Lua 脚本，只有 key 仍是这个值才删除：迟到的释放什么都删不掉。被暂停的持有者的租约照样会到期，所以它的时间线会与下一个持有者重叠一次（一次互斥违规，发生在它写入之后：没有重复卖出）；修复消除的是迟到的 DEL 放进来的那第三笔订单。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides([{ label: { en: 'naive-setnx, DEL on release', 'zh-CN': 'naive-setnx，释放时直接 DEL' }, strategy: 'naive-setnx' }], [{ label: { en: 'uuid-lua, compare-and-delete', 'zh-CN': 'uuid-lua，比较并删除' }, strategy: 'uuid-lua' }], pausedPastTheLease('stock-written')),
  },
  {
    name: 'non-atomic-release',
    title: { en: 'Check, then delete: two commands', 'zh-CN': '先检查、再删除：两条命令' },
    explanation: {
      whatHappens: {
        en: 'The holder GETs the key, sees its own value, and is paused before its DEL; the lease runs out, another order takes the lock, and the DEL that follows removes that order\'s lock, so a third one gets in beside it.',
        'zh-CN': '持有者 GET 这个 key，看到是自己的值，然后在 DEL 之前被暂停；租约到期，另一笔订单拿到锁，随后的 DEL 删掉的是那笔订单的锁，于是第三笔订单与它同时进入。',
      },
      atWhichStep: {
        en: 'Between the compare (GET) and the delete (DEL) of the release: release-checked-before-del.',
        'zh-CN': '在释放过程中的比较（GET）与删除（DEL）之间：release-checked-before-del。',
      },
      whyTheFixHolds: {
        en: 'uuid-lua does the compare and the delete in one Lua script, which Redis runs without anything in between: there is no gap to pause in (the fault point is never passed).',
        'zh-CN': 'uuid-lua 在一个 Lua 脚本里完成比较和删除，Redis 执行它时中间不会插入任何东西：根本没有可以停顿的间隙（这个故障点永远不会经过）。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides([{ label: { en: 'uuid-check-del, GET then DEL', 'zh-CN': 'uuid-check-del，先 GET 再 DEL' }, strategy: 'uuid-check-del' }], [{ label: { en: 'uuid-lua, one script', 'zh-CN': 'uuid-lua，一个脚本' }, strategy: 'uuid-lua' }], pausedPastTheLease('release-checked-before-del')),
  },
  {
    name: 'crash-between-setnx-and-expire',
    title: { en: 'A crash between SETNX and EXPIRE', 'zh-CN': '在 SETNX 与 EXPIRE 之间崩溃' },
    explanation: {
      whatHappens: {
        en: 'The process dies after SETNX and before EXPIRE: the key stays with no TTL and no holder, and every later order waits for it until it gives up.',
        'zh-CN': '进程在 SETNX 之后、EXPIRE 之前死掉：key 留了下来，既没有 TTL 也没有持有者，之后每笔订单都一直等它，直到放弃。',
      },
      atWhichStep: {
        en: 'Between the two commands of the acquire: lock-set-before-expire.',
        'zh-CN': '在加锁的两条命令之间：lock-set-before-expire。',
      },
      whyTheFixHolds: {
        en: 'SET key value NX PX ttl sets the key and its expiry in one command: there is no moment where the lock exists without its TTL, so a dead holder\'s lock ends with its lease.',
        'zh-CN': 'SET key value NX PX ttl 一条命令同时设置 key 和过期时间：不存在锁已存在却没有 TTL 的时刻，所以死掉的持有者的锁会随租约结束。',
      },
    },
    shows: 'deadlock',
    sides: sameSettingsSides([{ label: { en: 'setnx-expire, two commands', 'zh-CN': 'setnx-expire，两条命令' }, strategy: 'setnx-expire' }], [{ label: { en: 'naive-setnx, SET NX PX', 'zh-CN': 'naive-setnx，SET NX PX' }, strategy: 'naive-setnx' }], {
      initialStock: 200,
      lockTtlMs: 500,
      businessDelayMs: 5,
      load: CONTENDED,
      faults: [{ kind: 'crash', at: 'lock-set-before-expire', once: true }],
    }),
  },
  {
    name: 'dead-holder-no-ttl',
    title: { en: 'A dead holder and a lock with no TTL', 'zh-CN': '持有者死了，锁却没有 TTL' },
    explanation: {
      whatHappens: {
        en: 'The process holding the lock dies; nothing ever releases a lock without an expiry (a Redis key with no TTL, an owner row in the lock table), so every later order waits until it gives up.',
        'zh-CN': '持有锁的进程死掉；没有过期时间的锁（没有 TTL 的 Redis key、锁表里记录了持有者的行）永远不会有人来释放，所以之后每笔订单都一直等，直到放弃。',
      },
      atWhichStep: {
        en: 'While holding: a crash at lock-acquired.',
        'zh-CN': '持有期间：在 lock-acquired 处崩溃。',
      },
      whyTheFixHolds: {
        en: "The watchdog's lease is only renewed by a live holder: once it dies, the lock expires within one TTL and the next order takes it.",
        'zh-CN': '看门狗的租约只由活着的持有者续期：持有者一旦死掉，锁在一个 TTL 内过期，下一笔订单拿到它。',
      },
    },
    shows: 'deadlock',
    sides: sameSettingsSides(
      [
        { label: { en: 'setnx-no-ttl', 'zh-CN': 'setnx-no-ttl' }, strategy: 'setnx-no-ttl' },
        { label: { en: 'db-lock-table, owner row', 'zh-CN': 'db-lock-table，持有者行' }, strategy: 'db-lock-table' },
      ],
      [{ label: { en: 'watchdog, renewed lease', 'zh-CN': 'watchdog，续期租约' }, strategy: 'watchdog' }],
      { initialStock: 200, lockTtlMs: 500, businessDelayMs: 5, load: CONTENDED, faults: [{ kind: 'crash', at: 'lock-acquired', once: true }] },
    ),
  },
  {
    name: 'getset-clock-skew',
    title: { en: 'GETSET and clocks that disagree', 'zh-CN': 'GETSET 与不一致的时钟' },
    explanation: {
      whatHappens: {
        en: "The lock's value is its expiry time by the holder's clock; an instance whose clock runs ahead reads a live lock as expired, GETSETs it and takes it while its holder is still inside.",
        'zh-CN': '锁的值是按持有者时钟算出的过期时刻；时钟偏快的实例会把一把仍然有效的锁看成已过期，对它执行 GETSET，在持有者还在临界区内时就把锁拿走。',
      },
      atWhichStep: {
        en: 'At the acquire, where a waiter compares the stored stamp with its own "now" (stamp-read-before-getset).',
        'zh-CN': '在加锁时，等待者把存储的时间戳与自己的“当前时间”比较的那一步（stamp-read-before-getset）。',
      },
      whyTheFixHolds: {
        en: "uuid-lua never compares clocks: Redis expires the key by its own clock, and a waiter only gets the lock once the key is gone.",
        'zh-CN': 'uuid-lua 从不比较时钟：Redis 按自己的时钟让 key 过期，等待者只有在 key 消失后才能拿到锁。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides([{ label: { en: 'setnx-getset, stamps', 'zh-CN': 'setnx-getset，时间戳' }, strategy: 'setnx-getset' }], [{ label: { en: 'uuid-lua, Redis-side TTL', 'zh-CN': 'uuid-lua，Redis 端 TTL' }, strategy: 'uuid-lua' }], {
      initialStock: 40,
      lockTtlMs: 1000,
      businessDelayMs: 20,
      load: CONTENDED,
      faults: [{ kind: 'clock-offset', offsetMs: 5000, instance: 0 }],
    }),
  },
  {
    name: 'gc-pause-past-the-lease',
    title: { en: 'A GC pause past the lease', 'zh-CN': '超过租约的 GC 停顿' },
    explanation: {
      whatHappens: {
        en: "The holder's whole process stops (a stop-the-world pause, like a long GC) after it read the stock; its watchdog freezes with it, so the lease runs out and another instance takes the lock and sells; the paused holder wakes and writes the stock it read before: units sold twice.",
        'zh-CN': '持有者在读完库存后，整个进程停住了（一次 stop-the-world 停顿，就像长时间 GC）；它的看门狗也随之冻结，于是租约到期，另一个实例拿到锁并卖出；被暂停的持有者醒来，写回它之前读到的库存：同一件库存被卖了两次。',
      },
      atWhichStep: {
        en: 'While holding, between the stock read and the stock write (stop-the-world at stock-read, longer than the TTL, at the first holding of the run).',
        'zh-CN': '持有期间，在读库存与写库存之间（在 stock-read 处 stop-the-world，时长超过 TTL，发生在本次运行的第一次持有时）。',
      },
      whyTheFixHolds: {
        en: "Kleppmann's fencing token: each grant is numbered; the stock remembers the highest token it has seen and refuses a lower one, so the stale holder's write is refused (outcome fenced) even though the lock did let two holders in.",
        'zh-CN': 'Kleppmann 的栅栏令牌：每次授予都编号；库存记住它见过的最大令牌，拒绝更小的令牌，因此即使锁确实放进了两个持有者，过期持有者的写入也会被拒绝（结果为 fenced）。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides([{ label: { en: 'watchdog, no fence', 'zh-CN': 'watchdog，无栅栏' }, strategy: 'watchdog' }], [{ label: { en: 'watchdog-fenced, fencing tokens', 'zh-CN': 'watchdog-fenced，栅栏令牌' }, strategy: 'watchdog-fenced' }], {
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
    title: { en: 'The lock lost while the store was out of reach', 'zh-CN': '存储不可达期间丢了锁' },
    explanation: {
      whatHappens: {
        en: 'Redis is out of reach from one instance for longer than the lease: its holder cannot renew, the lock expires and another instance takes it; when the store comes back, a holder that never noticed writes the stock it read before the cut.',
        'zh-CN': '某个实例与 Redis 断开的时间超过租约：其持有者无法续期，锁过期，另一个实例拿到锁；存储恢复后，一个始终没察觉的持有者写回它在断连前读到的库存。',
      },
      atWhichStep: {
        en: 'While holding, after the stock read (a store cut at stock-read, longer than the TTL, at the first holding of the run).',
        'zh-CN': '持有期间，读库存之后（在 stock-read 处断开存储，时长超过 TTL，发生在本次运行的第一次持有时）。',
      },
      whyTheFixHolds: {
        en: "The watchdog's failed renewal raises its lock-lost signal to the holder, which gives the order up (outcome lock_lost) instead of writing under a lock it no longer has.",
        'zh-CN': '看门狗续期失败时会向持有者发出 lock-lost 信号，持有者随即放弃这笔订单（结果为 lock_lost），而不是在已经不属于自己的锁下写入。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides([{ label: { en: 'uuid-lua, no lost signal', 'zh-CN': 'uuid-lua，无锁丢失信号' }, strategy: 'uuid-lua' }], [{ label: { en: 'watchdog, lock-lost signal', 'zh-CN': 'watchdog，lock-lost 信号' }, strategy: 'watchdog' }], {
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
    title: { en: 'An optimistic retry storm', 'zh-CN': '乐观锁重试风暴' },
    explanation: {
      whatHappens: {
        en: 'Every order reads the row\'s version, and all but one of the orders that read it together fail the version check and go round again: under contention most rounds are wasted.',
        'zh-CN': '每笔订单都读取该行的 version，同时读到它的订单中除一笔外全都过不了版本检查，只能再来一轮：竞争下大多数轮次都白费了。',
      },
      atWhichStep: {
        en: 'At the UPDATE … WHERE version = :v, whose affected-row count is 0 for every order but one.',
        'zh-CN': '在 UPDATE … WHERE version = :v 处，除一笔订单外，其余订单的受影响行数都是 0。',
      },
      whyTheFixHolds: {
        en: 'db-conditional writes UPDATE … SET stock = stock - :n WHERE stock >= :n: the row lock orders the updates and none of them is ever retried.',
        'zh-CN': 'db-conditional 执行 UPDATE … SET stock = stock - :n WHERE stock >= :n：行锁让这些更新排好顺序，没有一条需要重试。',
      },
    },
    shows: 'retry-storm',
    sides: sameSettingsSides([{ label: { en: 'db-optimistic, version check', 'zh-CN': 'db-optimistic，版本检查' }, strategy: 'db-optimistic' }], [{ label: { en: 'db-conditional, one UPDATE', 'zh-CN': 'db-conditional，一条 UPDATE' }, strategy: 'db-conditional' }], {
      initialStock: 200,
      load: { connections: 60, durationSec: 4 },
    }),
  },
  {
    name: 'hot-key',
    title: { en: 'A hot key behind one lock', 'zh-CN': '热点 key 只有一把锁' },
    explanation: {
      whatHappens: {
        en: 'Every order for the product needs the one lock of its one stock key, so however many instances and connections there are, orders go through one at a time: at most one unit per business time (500 ms: 2 a second). The run ends with stock left unsold while buyers were queued for the lock.',
        'zh-CN': '该商品的每笔订单都需要它唯一那个库存 key 的唯一那把锁，所以无论有多少实例和连接，订单都只能一笔一笔通过：每段业务耗时内最多卖出一件（500 ms：每秒 2 件）。运行结束时库存还没卖完，而买家一直在排队等锁。',
      },
      atWhichStep: {
        en: "At the acquire: every order but the holder's waits on the one lock key through each holder's whole critical section (read, business time, write, order).",
        'zh-CN': '在加锁处：除持有者外的每笔订单，都要在这一个锁 key 上等过每个持有者的整个临界区（读、业务耗时、写、下单）。',
      },
      whyTheFixHolds: {
        en: 'segmented splits the stock over 20 keys, each behind its own owner-token lock: up to 20 orders are inside at once, each on its own segment, so the same load sells the stock out — and no unit is sold twice, since each segment is still a uuid-lua lock held for less than its lease.',
        'zh-CN': 'segmented 把库存拆到 20 个 key 上，每个 key 由自己的持有者令牌锁保护：最多 20 笔订单同时在临界区内，各自处理自己的分段，所以同样的负载能把库存卖完——而且不会有库存被卖两次，因为每个分段仍是一把 uuid-lua 锁，持有时间短于其租约。',
      },
    },
    shows: 'hot-key',
    sides: sameSettingsSides([{ label: { en: 'uuid-lua, one lock', 'zh-CN': 'uuid-lua，一把锁' }, strategy: 'uuid-lua' }], [{ label: { en: 'segmented, 20 locks', 'zh-CN': 'segmented，20 把锁' }, strategy: 'segmented' }], {
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
    title: { en: 'The double click', 'zh-CN': '重复点击' },
    explanation: {
      whatHappens: {
        en: 'The shopper clicks twice; both requests arrive at once and, with nothing to tell them apart, each becomes an order: one click, two orders.',
        'zh-CN': '顾客点了两下；两个请求同时到达，又没有任何东西能区分它们，于是各自成了一笔订单：一次点击，两笔订单。',
      },
      atWhichStep: {
        en: 'Before any lock: the two requests are two orders to the service.',
        'zh-CN': '在任何锁之前：对服务来说，这两个请求就是两笔订单。',
      },
      whyTheFixHolds: {
        en: 'Both copies carry one idempotency key: the first makes the order, the second is answered with that same order (replayed), so one click is one order.',
        'zh-CN': '两份请求带着同一个幂等键：第一份创建订单，第二份得到的就是同一笔订单（replayed，重放），所以一次点击只有一笔订单。',
      },
    },
    shows: 'duplicates',
    sides: [
      {
        label: { en: 'without an idempotency key', 'zh-CN': '不带幂等键' },
        role: 'broken',
        strategy: 'lua-decrement',
        settings: { initialStock: 10_000, load: { connections: 20, totalRequests: 400 }, faults: [{ kind: 'double-click', copies: 2, idempotencyKey: false }] },
      },
      {
        label: { en: 'with an idempotency key', 'zh-CN': '带幂等键' },
        role: 'fix',
        strategy: 'lua-decrement',
        settings: { initialStock: 10_000, load: { connections: 20, totalRequests: 400 }, faults: [{ kind: 'double-click', copies: 2, idempotencyKey: true }] },
      },
    ],
  },
  {
    name: 'redlock-node-restart',
    title: { en: 'A RedLock node restarted without persistence', 'zh-CN': '未开持久化就重启的 RedLock 节点' },
    explanation: {
      whatHappens: {
        en: "The first order wins the lock on three of the five nodes: a stranger's grant, left by a client that died part-way through its acquire, holds the other two. One of its three nodes restarts and, keeping nothing on disk, forgets the grant, and the stranger's grants end. The three nodes that do not hold the lock are a majority: a second order wins them while the first is still inside, both read the last unit and both sell it (Kleppmann's sequence).",
        'zh-CN': '第一笔订单在五个节点中的三个上赢得了锁：另外两个节点上留着另一个客户端的锁，那个客户端在加锁途中死掉了。持有者的三个节点中有一个重启，由于磁盘上什么都没保留，它忘掉了这把锁，而那个客户端留下的锁也到期了。这时不持有该锁的三个节点构成多数：第二笔订单在第一笔还在临界区内时赢下它们，两者都读到最后一件库存，都把它卖了出去（Kleppmann 描述的时序）。',
      },
      atWhichStep: {
        en: "Right after the lock is granted (a node-restart at lock-acquired, at the first holding of the run): the stranger's grants set at the run's reset, one of the holder's nodes restarted there, the fault over once it serves again.",
        'zh-CN': '锁刚被授予之后（在 lock-acquired 处注入 node-restart 故障，发生在本次运行的第一次持有时）：那个死掉的客户端留下的锁在运行重置时写入，持有者的一个节点在此处重启，该节点重新提供服务后故障结束。',
      },
      whyTheFixHolds: {
        en: "redis.io's delayed restarts, kept by the clients: a node votes for a lease only once it has been up that long, so the restarted node sits out the holder's lease and the second order finds two free voters, no majority. Persistence with fsync always closes it too (the node comes back with the grant; libs/locks redlock.int-spec); a fencing token cannot, for RedLock has no counter to issue one.",
        'zh-CN': 'redis.io 的延迟重启（delayed restarts），由客户端执行：节点只有在运行满一个租约时长后才为该租约投票，所以重启的节点在持有者的这个租约期内不参与投票，第二笔订单只找到两个空闲的投票节点，凑不成多数。配置 fsync always 的持久化同样能堵住它（节点重启后仍记得这把锁；见 libs/locks 的 redlock.int-spec）；栅栏令牌则不行，因为 RedLock 没有可以发放令牌的计数器。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides([{ label: { en: 'redlock, nodes without persistence', 'zh-CN': 'redlock，节点未开持久化' }, strategy: 'redlock' }], [{ label: { en: 'redlock-delayed-restart', 'zh-CN': 'redlock-delayed-restart' }, strategy: 'redlock-delayed-restart' }], {
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
    name: 'redlock-clock-jump',
    title: { en: "A RedLock node's clock jumps forward", 'zh-CN': 'RedLock 节点的时钟向前跳变' },
    explanation: {
      whatHappens: {
        en: "The first order wins the lock on three of the five nodes (a stranger's grant, left by a client that died part-way through its acquire, holds the other two). Then the wall clock of one of its three nodes steps a minute forward, as an NTP correction or an operator's date command does, and the stranger's grants end. Redis 7 expires keys by its wall clock (mstime(), gettimeofday), not by its monotonic clock (getMonotonicUs, which it uses for timeouts only): that node drops the holder's grant at once, on the next read and in its active expire cycle alike. The three nodes that do not hold the lock are a majority: a second order wins them while the first is still inside, both read the last unit and both sell it (the articles' RedLock problem three). The jump is real: the node's redis-server runs under Debian's libfaketime, which fakes its wall clock only (DONT_FAKE_MONOTONIC=1) and reads the offset from a file at every call (FAKETIME_NO_CACHE=1); the fault rewrites the file.",
        'zh-CN': '第一笔订单在五个节点中的三个上赢得了锁（另外两个节点上留着另一个客户端的锁，那个客户端在加锁途中死掉了）。随后，它的三个节点之一的墙上时钟向前跳了一分钟（就像 NTP 校时或运维执行 date 命令那样），那个客户端留下的锁也随之到期。Redis 7 按墙上时钟（mstime()，即 gettimeofday）让 key 过期，而不是按单调时钟（getMonotonicUs，只用于超时计时）：这个节点立刻丢掉了持有者的锁，无论是下一次读取时还是在主动过期周期里。不持有该锁的三个节点构成多数：第二笔订单在第一笔还在临界区内时赢下它们，两者都读到最后一件库存，都把它卖了出去（文章中 RedLock 的第三个问题）。这次时钟跳变是真实的：该节点的 redis-server 运行在 Debian 的 libfaketime 之下，它只伪造墙上时钟（DONT_FAKE_MONOTONIC=1），并在每次调用时从一个文件读取偏移量（FAKETIME_NO_CACHE=1）；故障注入就是改写这个文件。',
      },
      atWhichStep: {
        en: "Right after the lock is granted (a clock-jump of 60 s at lock-acquired, at the first holding of the run): the stranger's grants set at the run's reset, the first node's clock stepped there, the fault over once that node's TIME reads the jumped clock.",
        'zh-CN': '锁刚被授予之后（在 lock-acquired 处注入 60 秒的 clock-jump，发生在本次运行的第一次持有时）：那个死掉的客户端留下的锁在运行重置时写入，第一个节点的时钟在此处跳变，该节点的 TIME 读到跳变后的时间时故障结束。',
      },
      whyTheFixHolds: {
        en: "RedLock's safety rests on every node's clock running at the right rate; nothing the client does can check it, and delayed restarts do not help (no node restarted). The fenced MySQL row rests on no clock: each grant of its lock carries a token from a counter, and the row takes a write only with a token at least as high as the last one it saw, from the holding that brought it. Its lock runs on the lab's Redis, not on the jumped node, but it would not matter if it did: a lock that expired early lets a second holder in, and the row refuses the stale holder's write (outcome fenced). Under the same fault it sells the unit once.",
        'zh-CN': 'RedLock 的安全性依赖于每个节点的时钟都以正确的速率走动；客户端无从检查这一点，延迟重启也帮不上忙（没有节点重启）。带栅栏的 MySQL 行不依赖任何时钟：它的锁每次授予都从计数器领取一个令牌，而这一行只接受这样的写入：令牌不低于它见过的最大令牌，且写入来自带来该令牌的那次持有。它的锁在实验室的 Redis 上，不在跳变的节点上，但即便在上面也无妨：提前过期的锁放进了第二个持有者，这一行会拒绝过期持有者的写入（结果为 fenced）。在同样的故障下，这件库存只卖出一次。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides([{ label: { en: 'redlock, one node\'s clock jumped', 'zh-CN': 'redlock，一个节点的时钟跳变' }, strategy: 'redlock' }], [{ label: { en: 'watchdog-fenced-mysql, fenced row', 'zh-CN': 'watchdog-fenced-mysql，带栅栏的行' }, strategy: 'watchdog-fenced-mysql' }], {
      // As redlock-node-restart: one unit, sold twice once both holders read it before either writes; the
      // holder's read-to-write window is its business time (2 s) from the jump, the waiters take the three
      // free nodes within it. A lease that covers the business time on every clock but the jumped node's;
      // a jump of a minute, far past that lease.
      initialStock: 1,
      lockTtlMs: 6000,
      businessDelayMs: 2000,
      load: { connections: 4, durationSec: 6 },
      faults: [{ kind: 'clock-jump', at: 'lock-acquired', once: true, offsetMs: 60_000 }],
    }),
  },
  {
    name: 'master-failover',
    title: { en: 'The lock lost in a master–replica failover', 'zh-CN': '主从切换中丢失的锁' },
    explanation: {
      whatHappens: {
        en: "Redis replicates asynchronously: the lock key is on the master when SET answers, not yet on its replica. The master dies in that gap, Sentinel promotes the replica, which never saw the lock, and it grants the same lock to a second order while the first holder is still inside: both read the last unit and both sell it.",
        'zh-CN': 'Redis 是异步复制的：SET 返回时，锁 key 在主节点上，还没到副本上。主节点恰好在这个间隙里挂掉，Sentinel 提升了从未见过这把锁的副本，它把同一把锁授予了第二笔订单，而第一个持有者还在临界区内：两者都读到最后一件库存，都把它卖了出去。',
      },
      atWhichStep: {
        en: 'Right after the lock is granted (a failover at lock-acquired, at the first holding of the run): the replica held back from the run\'s start, the master shut down there, the fault over once Sentinel has promoted the replica.',
        'zh-CN': '锁刚被授予之后（在 lock-acquired 处主从切换，发生在本次运行的第一次持有时）：副本从运行开始起就被暂停同步，主节点在此处被关闭，Sentinel 提升副本后故障结束。',
      },
      whyTheFixHolds: {
        en: "No lock on a replicated master survives this, the fenced one included: its counter is lost with the master and the second holder is given the first one's token again. The fenced MySQL row also records which holding brought its token, so it lets in only the first of the two holders that carry it: the other is answered fenced and nothing is sold twice. RedLock has no master to lose: the same fault restarts one of its five nodes without its data, one the holder can lose and keep a majority (one of its own when it holds four or five, another when its votes split three to two), so the second order wins two nodes at most and is refused. Losing one of exactly three is RedLock's own restart pitfall: the redlock-node-restart preset.",
        'zh-CN': '放在有复制的主节点上的锁都扛不住这种情况，带栅栏的也不例外：它的计数器随主节点一起丢失，第二个持有者会再次拿到第一个持有者的令牌。带栅栏的 MySQL 行还记录了带来其令牌的是哪一次持有，因此在两个持有相同令牌的持有者中只放行第一个：另一个得到 fenced，不会重复卖出。RedLock 没有可以丢失的主节点：同一个故障在这里表现为五个节点之一丢失数据后重启，而且是持有者失去后仍保有多数的那个节点（持有者拿到四或五票时是它自己的一个节点，票数三比二分开时是另一个），所以第二笔订单最多赢下两个节点，被拒绝。恰好三票时丢掉其中一个，则是 RedLock 自身的重启陷阱：见 redlock-node-restart 预设。',
      },
    },
    shows: 'oversold',
    sides: sameSettingsSides(
      [
        { label: { en: 'uuid-lua on a Sentinel master', 'zh-CN': 'Sentinel 主节点上的 uuid-lua' }, strategy: 'uuid-lua' },
        { label: { en: 'watchdog on a Sentinel master', 'zh-CN': 'Sentinel 主节点上的 watchdog' }, strategy: 'watchdog' },
      ],
      [
        { label: { en: 'watchdog-fenced-mysql, fenced row', 'zh-CN': 'watchdog-fenced-mysql，带栅栏的行' }, strategy: 'watchdog-fenced-mysql' },
        { label: { en: 'redlock, one node of five lost', 'zh-CN': 'redlock，五个节点丢一个' }, strategy: 'redlock' },
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
export function pitfallShown(preset: PitfallExperiment, side: PitfallSide, run: RunView): boolean {
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

export function pitfallVerdict(preset: PitfallExperiment, side: PitfallSide, run: RunView | undefined): PitfallVerdict {
  if (!run || run.status === 'queued' || run.status === 'running' || !run.result) return run?.status === 'failed' ? 'failed' : 'pending';
  const shown = pitfallShown(preset, side, run);
  if (side.role === 'broken') return shown ? 'showed' : 'missed';
  return shown || unitsSoldTwice(run.result.reconciliation) > 0 ? 'not-clean' : 'clean';
}

/** The verdicts a presenter wants to see: the broken side showing its pitfall, the fix staying clean. */
export function isExpectedVerdict(verdict: PitfallVerdict): boolean {
  return verdict === 'showed' || verdict === 'clean';
}
