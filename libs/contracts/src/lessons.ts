import type { Localized } from './locale';
import type { LockService } from './lock-services';
import { findPitfallPreset, sameSettingsSides, type PitfallExperiment, type PitfallExplanation, type PitfallPreset, type PitfallRunSettings, type PitfallSide } from './pitfall-presets';
import type { RunParams } from './runs';
import type { StrategyName } from './strategies';

/**
 * The course through the articles, one lesson at a time: the dashboard's Lessons view, its presenter and
 * follow modes, and docs/lessons.md read this one table. A lesson runs a pitfall preset (its broken side
 * and its fix), lab runs of strategies that are in no preset, or both, one after the other.
 */

/** A source the lesson leans on: the articles' own references. */
export interface LessonReference {
  title: string;
  url: string;
}

export const REFERENCES = {
  redisIo: { title: 'redis.io — Distributed Locks with Redis', url: 'https://redis.io/docs/latest/develop/clients/patterns/distributed-locks/' },
  kleppmann: { title: 'Martin Kleppmann — How to do distributed locking', url: 'https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html' },
  antirez: { title: 'antirez — Is Redlock safe?', url: 'http://antirez.com/news/101' },
} as const satisfies Record<string, LessonReference>;

/** Lab runs of a lesson: sides under the same settings, judged by one sign, with what they show. */
export interface LessonLabRuns extends PitfallExperiment {
  explanation: PitfallExplanation;
}

export interface Lesson {
  /** URL-safe and unique: `#/lessons/<id>`. */
  id: string;
  title: Localized;
  /** What the articles claim at this point of the progression. */
  claim: Localized;
  /** The question the claim raises, which the lesson's run answers. */
  question: Localized;
  /** A preset of PITFALL_PRESETS, run first. */
  preset?: string;
  /** Runs of strategies the preset does not cover, after it. */
  labRuns?: LessonLabRuns;
  /** The locks whose code the lesson shows (their scripts, as the service loaded them). */
  strategies: StrategyName[];
  /** Servers the lab starts only when asked (`npm run demo -- --sentinels`): without them the run is refused. */
  needs?: LockService[];
  references?: LessonReference[];
}

/** A plain contended load for the lab runs: enough orders at once to find a gap, short enough to show. */
const CONTENDED: PitfallRunSettings['load'] = { connections: 20, durationSec: 4 };
/** A short business time under each lock: what the line of waiters queues for. */
const QUEUED: PitfallRunSettings = { initialStock: 20, lockTtlMs: 2000, businessDelayMs: 50, load: CONTENDED };

export const LESSONS: readonly Lesson[] = [
  {
    id: 'no-lock',
    title: { en: 'No lock: read, check, write', 'zh-CN': '不加锁：读、判断、写' },
    claim: {
      en: 'Deducting stock is three steps: read the stock, check it is above zero, write it back minus one.',
      'zh-CN': '扣减库存只有三步：读库存，判断大于零，减一写回。',
    },
    question: { en: 'What happens when forty buyers do those three steps at once?', 'zh-CN': '四十个买家同时做这三步，会发生什么？' },
    labRuns: {
      shows: 'sold-twice',
      sides: sameSettingsSides([{ label: { en: 'no-lock, plain contention', 'zh-CN': 'no-lock，单纯的并发争抢' }, strategy: 'no-lock' }], [], {
        initialStock: 100,
        businessDelayMs: 50,
        load: { connections: 40, durationSec: 4 },
      }),
      explanation: {
        whatHappens: {
          en: 'Many orders read the same stock before any of them writes; each writes its own "stock minus one", so several sales leave one unit gone: units are sold twice while the counter says stock is left.',
          'zh-CN': '许多订单在任何一笔写入之前读到同样的库存；每笔都写回自己算出的“库存减一”，于是几次卖出只扣掉一件：同一件库存被重复卖出，而计数器显示还有库存。',
        },
        atWhichStep: { en: 'Between the stock read and the stock write (the business time, 50 ms).', 'zh-CN': '在读库存与写库存之间（业务耗时 50 ms）。' },
        whyTheFixHolds: {
          en: 'Nothing holds yet: the rest of the course puts a lock around the read and the write, or makes the deduction one atomic step.',
          'zh-CN': '这里还没有任何保护：课程接下来的内容会给读和写加上一把锁，或者把扣减做成一个原子操作。',
        },
      },
    },
    strategies: ['no-lock'],
  },
  {
    id: 'setnx-no-ttl',
    title: { en: 'SETNX with no TTL', 'zh-CN': '没有 TTL 的 SETNX' },
    claim: { en: 'SETNX sets the key only if it is absent: the one who set it holds the lock; DEL releases it.', 'zh-CN': 'SETNX 只在 key 不存在时才设置成功：设置成功者持有锁，DEL 释放锁。' },
    question: { en: 'What if the holder dies before its DEL?', 'zh-CN': '如果持有者在 DEL 之前挂了呢？' },
    preset: 'dead-holder-no-ttl',
    strategies: ['setnx-no-ttl', 'db-lock-table'],
  },
  {
    id: 'setnx-expire',
    title: { en: 'SETNX, then EXPIRE', 'zh-CN': '先 SETNX，再 EXPIRE' },
    claim: { en: 'Give the lock a TTL: a dead holder\'s lock then expires on its own.', 'zh-CN': '给锁加一个 TTL：持有者挂了，锁也会自己过期。' },
    question: { en: 'SETNX and EXPIRE are two commands: what if the holder dies between them?', 'zh-CN': 'SETNX 和 EXPIRE 是两条命令：如果持有者在两者之间挂了呢？' },
    preset: 'crash-between-setnx-and-expire',
    strategies: ['setnx-expire', 'naive-setnx'],
    references: [REFERENCES.redisIo],
  },
  {
    id: 'setnx-getset',
    title: { en: 'Expiry by timestamps: SETNX + GETSET', 'zh-CN': '用时间戳过期：SETNX + GETSET' },
    claim: {
      en: 'Store an expiry time as the value; a waiter that finds it past swaps in its own with GETSET and takes the lock.',
      'zh-CN': '把过期时间作为值存进去；等待者发现它已过期，就用 GETSET 换上自己的时间并拿到锁。',
    },
    question: { en: 'Whose clock decides that a lock has expired?', 'zh-CN': '由谁的时钟来判断锁已经过期？' },
    preset: 'getset-clock-skew',
    strategies: ['setnx-getset', 'uuid-lua'],
  },
  {
    id: 'set-nx-px',
    title: { en: 'SET NX PX: one command', 'zh-CN': 'SET NX PX：一条命令' },
    claim: { en: 'SET key value NX PX ttl sets the lock and its TTL at once: no gap to die in.', 'zh-CN': 'SET key value NX PX ttl 一次性设置锁和 TTL：中间不再有可能挂掉的间隙。' },
    question: { en: 'The lease can run out under a slow holder: what does its DEL then delete?', 'zh-CN': '持有者执行太慢时，租约可能已经到期：这时它的 DEL 删掉的是什么？' },
    preset: 'mis-deletion',
    strategies: ['naive-setnx', 'uuid-lua'],
    references: [REFERENCES.redisIo],
  },
  {
    id: 'owner-token-get-del',
    title: { en: 'An owner token, checked with GET then DEL', 'zh-CN': '持有者令牌：先 GET 检查再 DEL' },
    claim: { en: 'Store a random token per holder and delete the key only if GET returns your own token.', 'zh-CN': '为每个持有者存一个随机令牌，只有 GET 返回的是自己的令牌时才删除 key。' },
    question: { en: 'GET and DEL are two commands: can the lock change hands between them?', 'zh-CN': 'GET 和 DEL 是两条命令：锁会不会在两者之间易手？' },
    preset: 'non-atomic-release',
    strategies: ['uuid-check-del', 'uuid-lua'],
    references: [REFERENCES.redisIo],
  },
  {
    id: 'lua-compare-and-delete',
    title: { en: 'Lua compare-and-delete, and a lease that runs out', 'zh-CN': 'Lua 比较并删除，以及到期的租约' },
    claim: { en: 'One Lua script compares the token and deletes the key: Redis runs it with nothing in between.', 'zh-CN': '一个 Lua 脚本比较令牌并删除 key：Redis 执行它时中间不会穿插其他命令。' },
    question: { en: 'The release is safe now; what if the business takes longer than the TTL?', 'zh-CN': '释放已经安全了；如果业务耗时比 TTL 还长呢？' },
    preset: 'expiry-during-business',
    strategies: ['uuid-lua', 'watchdog'],
    references: [REFERENCES.redisIo],
  },
  {
    id: 'watchdog',
    title: { en: 'The watchdog, and the lock it loses', 'zh-CN': '看门狗，以及它丢掉的锁' },
    claim: { en: 'A watchdog renews the lease while its holder lives, so a long business never outlives it.', 'zh-CN': '看门狗在持有者活着时不断为租约续期，所以业务耗时再长，租约也不会先于业务到期。' },
    question: { en: 'What if the renewal cannot reach Redis: does the holder know it lost the lock?', 'zh-CN': '如果续期连不上 Redis：持有者知道自己已经丢了锁吗？' },
    preset: 'lost-lock-on-store-cut',
    strategies: ['watchdog', 'uuid-lua'],
  },
  {
    id: 'pauses-and-fencing',
    title: { en: 'Pauses and fencing tokens', 'zh-CN': '停顿与栅栏令牌' },
    claim: { en: 'A process paused past its lease (GC, stop-the-world) writes as if it still held the lock; no renewal helps.', 'zh-CN': '停顿超过租约的进程（GC、stop-the-world）醒来后照样写入，仿佛还持有锁；续期也帮不上忙。' },
    question: { en: 'How can the store refuse the write of a holder that is no longer one?', 'zh-CN': '存储端如何拒绝已经失去锁的旧持有者的写入？' },
    preset: 'gc-pause-past-the-lease',
    strategies: ['watchdog', 'watchdog-fenced'],
    references: [REFERENCES.kleppmann],
  },
  {
    id: 'master-failover',
    title: { en: 'A lock lost in a failover', 'zh-CN': '主从切换中丢失的锁' },
    claim: { en: 'Put Redis behind Sentinel for availability: a replica takes over when the master dies.', 'zh-CN': '为了可用性，让 Redis 由 Sentinel 管理：主节点挂了，副本接替。' },
    question: { en: 'Replication is asynchronous: is the lock on the replica that takes over?', 'zh-CN': '复制是异步的：接替的副本上有这把锁吗？' },
    preset: 'master-failover',
    strategies: ['uuid-lua', 'watchdog', 'watchdog-fenced-mysql', 'redlock'],
    needs: ['redis-sentinel'],
    references: [REFERENCES.redisIo, REFERENCES.kleppmann],
  },
  {
    id: 'redlock',
    title: { en: 'RedLock and its failures', 'zh-CN': 'RedLock 及其失效场景' },
    claim: { en: 'RedLock takes the lock on a majority of independent Redis nodes, so no single node\'s loss frees it.', 'zh-CN': 'RedLock 在过半数的独立 Redis 节点上加锁，所以任何单个节点丢失都不会让锁失效。' },
    question: { en: 'What if a node that voted for the holder restarts without its data?', 'zh-CN': '如果一个投票给持有者的节点丢了数据后重启呢？' },
    preset: 'redlock-node-restart',
    labRuns: {
      shows: 'sold-twice',
      sides: sameSettingsSides([], [{ label: { en: 'redlock-lib, the library', 'zh-CN': 'redlock-lib，现成的库' }, strategy: 'redlock-lib' }], QUEUED),
      explanation: {
        whatHappens: {
          en: 'The well-kept library (node-redlock) under plain contention, no fault: orders queue for a majority of the five nodes and every unit is sold once.',
          'zh-CN': '维护良好的库（node-redlock）在单纯的并发争抢下、没有故障时：订单排队争取五个节点中的多数，每件库存只卖出一次。',
        },
        atWhichStep: { en: 'Each acquisition: a SET NX PX on every node, counted against the time it took.', 'zh-CN': '每次加锁：在每个节点上执行 SET NX PX，并从锁的有效期中扣除加锁所花的时间。' },
        whyTheFixHolds: {
          en: 'A majority cannot be held twice while the nodes keep what they granted; the restart above is where that assumption breaks, and Kleppmann and antirez disagree on how much timing it may rely on.',
          'zh-CN': '只要节点保住自己授予过的锁，多数派就不可能同时被两方持有；上面的重启正是这个前提失效的地方，而 Kleppmann 与 antirez 对 RedLock 能在多大程度上依赖时序看法不一。',
        },
      },
    },
    strategies: ['redlock', 'redlock-delayed-restart', 'redlock-lib'],
    references: [REFERENCES.redisIo, REFERENCES.kleppmann, REFERENCES.antirez],
  },
  {
    id: 'redlock-clock-jump',
    title: { en: 'RedLock and a clock that jumps', 'zh-CN': 'RedLock 与跳变的时钟' },
    claim: { en: 'A majority of nodes, each expiring the lock after its TTL, keeps the lock safe without any shared clock.', 'zh-CN': '多数派节点各自在 TTL 到期后让锁过期，不需要共享时钟也能保证锁的安全。' },
    question: { en: 'What if one node\'s wall clock steps a minute forward while the lock is held?', 'zh-CN': '如果持有锁期间某个节点的墙上时钟向前跳了一分钟呢？' },
    preset: 'redlock-clock-jump',
    strategies: ['redlock', 'watchdog-fenced-mysql'],
    references: [REFERENCES.kleppmann, REFERENCES.antirez],
  },
  {
    id: 'zookeeper-etcd',
    title: { en: 'ZooKeeper and etcd: a fair line, at a cost', 'zh-CN': 'ZooKeeper 与 etcd：公平的队列，以及代价' },
    claim: {
      en: 'A consensus store grants the lock in order: ZooKeeper\'s ephemeral sequential nodes, etcd\'s lease and revision; a dead holder\'s session or lease ends and frees it.',
      'zh-CN': '共识存储按顺序授予锁：ZooKeeper 的临时顺序节点，etcd 的租约与 revision；持有者挂了，会话或租约结束，锁随之释放。',
    },
    question: { en: 'What does that order cost per order, beside a Redis lock?', 'zh-CN': '与 Redis 锁相比，这种顺序让每笔订单付出多少代价？' },
    labRuns: {
      shows: 'sold-twice',
      sides: sameSettingsSides(
        [],
        [
          { label: { en: 'etcd, lease and revision', 'zh-CN': 'etcd，租约与 revision' }, strategy: 'etcd' },
          { label: { en: 'zookeeper, sequential node', 'zh-CN': 'zookeeper，临时顺序节点' }, strategy: 'zookeeper' },
        ],
        QUEUED,
      ),
      explanation: {
        whatHappens: {
          en: 'Both sell every unit once: each waiter watches the one just ahead of it and is woken in turn, so the line is fair and nobody polls. Compare their units per second with a Redis lock\'s: every acquisition is a write the ensemble agrees on.',
          'zh-CN': '两者每件库存都只卖出一次：每个等待者只监听排在它前面的那一个，依次被唤醒，所以队列公平，也没有人轮询。把它们每秒卖出的件数与 Redis 锁比较：每次加锁都是一次需要集群达成一致的写入。',
        },
        atWhichStep: { en: 'At the acquisition: a node or key created through consensus, then a watch on the one ahead.', 'zh-CN': '在加锁时：通过共识创建节点或 key，然后监听排在前面的那一个。' },
        whyTheFixHolds: {
          en: 'The holder\'s session (ZooKeeper) or lease (etcd) is kept alive by the client and ends when it dies; the store, not a clock in the client, decides who is next. A pause past the session is still possible: Kleppmann\'s fencing argument applies here too.',
          'zh-CN': '持有者的会话（ZooKeeper）或租约（etcd）由客户端保活，客户端挂了就结束；由存储而不是客户端的时钟决定下一个是谁。停顿超过会话时长仍然可能发生：Kleppmann 关于栅栏令牌的论证在这里同样适用。',
        },
      },
    },
    strategies: ['etcd', 'zookeeper'],
    references: [REFERENCES.kleppmann],
  },
  {
    id: 'database-locks',
    title: { en: 'Database locks', 'zh-CN': '数据库锁' },
    claim: {
      en: 'The stock is in MySQL anyway: lock its row (SELECT … FOR UPDATE), a lock row or GET_LOCK, or check a version on the write.',
      'zh-CN': '库存本来就在 MySQL 里：锁住它的行（SELECT … FOR UPDATE）、一行锁记录或 GET_LOCK，或者在写入时检查版本号。',
    },
    question: { en: 'Which of them holds under contention, and what does the optimistic one waste?', 'zh-CN': '并发争抢下哪些能守住库存？乐观锁又浪费了什么？' },
    preset: 'optimistic-retry-storm',
    labRuns: {
      shows: 'sold-twice',
      sides: sameSettingsSides(
        [],
        [
          { label: { en: 'db-pessimistic, row lock', 'zh-CN': 'db-pessimistic，行锁' }, strategy: 'db-pessimistic' },
          { label: { en: 'db-lock-table-ttl, lock row with expiry', 'zh-CN': 'db-lock-table-ttl，带过期的锁记录' }, strategy: 'db-lock-table-ttl' },
          { label: { en: 'mysql-get-lock, GET_LOCK', 'zh-CN': 'mysql-get-lock，GET_LOCK' }, strategy: 'mysql-get-lock' },
        ],
        QUEUED,
      ),
      explanation: {
        whatHappens: {
          en: 'Each sells every unit once: the row lock queues the orders on the stock row inside one transaction, the lock row and GET_LOCK queue them on a lock the database keeps.',
          'zh-CN': '它们每件库存都只卖出一次：行锁让订单在同一个事务里排队等待库存行，锁记录和 GET_LOCK 让订单排队等待数据库保管的锁。',
        },
        atWhichStep: { en: 'SELECT … FOR UPDATE on the stock row, an INSERT of the lock row, or GET_LOCK, before the read.', 'zh-CN': '在读库存之前：对库存行执行 SELECT … FOR UPDATE、插入锁记录，或 GET_LOCK。' },
        whyTheFixHolds: {
          en: 'The lock and the stock are in the same store: a transaction that dies releases its row lock, a connection that dies releases its GET_LOCK, and an expired lock row is taken over only by a conditional write.',
          'zh-CN': '锁和库存在同一个存储里：事务挂了会释放行锁，连接断了会释放 GET_LOCK，过期的锁记录只能通过条件写入被接管。',
        },
      },
    },
    strategies: ['db-pessimistic', 'db-optimistic', 'db-conditional', 'db-lock-table-ttl', 'mysql-get-lock'],
  },
  {
    id: 'atomic-decrement-and-segments',
    title: { en: 'Atomic decrement and segments', 'zh-CN': '原子扣减与分段库存' },
    claim: { en: 'No lock at all: decrement the stock in one atomic step, and split a hot product\'s stock into segments.', 'zh-CN': '根本不用锁：用一个原子操作扣减库存，并把热点商品的库存拆成多段。' },
    question: { en: 'How fast does one lock per product sell, and what does an atomic decrement do when it goes below zero?', 'zh-CN': '每个商品一把锁能卖多快？原子扣减减到零以下时又会怎样？' },
    preset: 'hot-key',
    labRuns: {
      shows: 'sold-twice',
      sides: sameSettingsSides(
        [],
        [
          { label: { en: 'decr-check, DECR then check', 'zh-CN': 'decr-check，先 DECR 再检查' }, strategy: 'decr-check' },
          { label: { en: 'segmented-cluster, segments on a Cluster', 'zh-CN': 'segmented-cluster，分布在 Cluster 上的分段' }, strategy: 'segmented-cluster' },
        ],
        { initialStock: 100, segments: 5, load: { connections: 40, durationSec: 4 } },
      ),
      explanation: {
        whatHappens: {
          en: 'decr-check decrements first and gives the unit back when the result is below zero: the stock is briefly negative, yet no unit is sold twice. segmented-cluster spreads the stock over segments on the Cluster\'s masters, each decremented by a script.',
          'zh-CN': 'decr-check 先扣减，结果小于零时再把这一件加回去：库存会短暂为负，但没有一件被重复卖出。segmented-cluster 把库存分散到 Cluster 各主节点上的多个分段，每段由一个脚本扣减。',
        },
        atWhichStep: { en: 'The DECR (or the segment\'s script): one command, nothing in between.', 'zh-CN': '在 DECR（或分段的脚本）处：一条命令，中间没有任何间隙。' },
        whyTheFixHolds: {
          en: 'Redis runs one command or script at a time on a key: the check and the decrement cannot be interleaved, so there is no read-to-write gap to sell twice in.',
          'zh-CN': 'Redis 对一个 key 一次只执行一条命令或一个脚本：检查和扣减不会被交错，所以不存在可以重复卖出的读写间隙。',
        },
      },
    },
    strategies: ['lua-decrement', 'decr-check', 'segmented', 'segmented-cluster'],
  },
  {
    id: 'duplicate-clicks',
    title: { en: 'Duplicate clicks', 'zh-CN': '重复点击' },
    claim: { en: 'The stock holds now; a buyer who clicks twice still sends two orders.', 'zh-CN': '库存已经守住了；但买家点了两次，仍然会发出两笔订单。' },
    question: { en: 'How does the service know the second request is the same click?', 'zh-CN': '服务怎么知道第二个请求是同一次点击？' },
    preset: 'double-click',
    strategies: ['lua-decrement'],
  },
];

export function findLesson(id: string | undefined): Lesson | undefined {
  return LESSONS.find((lesson) => lesson.id === id);
}

/** The lesson before and after this one in the course. */
export function neighbourLessons(id: string): { previous?: Lesson; next?: Lesson } {
  const index = LESSONS.findIndex((lesson) => lesson.id === id);
  if (index < 0) return {};
  return { previous: LESSONS[index - 1], next: LESSONS[index + 1] };
}

/** One side of a lesson's run, with what judges it: its preset, or the lesson's lab runs. */
export interface LessonSide {
  experiment: PitfallExperiment;
  side: PitfallSide;
}

/** What the lesson's one button runs, in order: the preset's sides, then the lab runs. */
export function lessonSides(lesson: Lesson): LessonSide[] {
  const preset: PitfallPreset | undefined = lesson.preset ? findPitfallPreset(lesson.preset) : undefined;
  return [...(preset?.sides.map((side) => ({ experiment: preset, side })) ?? []), ...(lesson.labRuns?.sides.map((side) => ({ experiment: lesson.labRuns!, side })) ?? [])];
}

/** What a side sends to POST /api/runs; the scenario names the lesson (the API takes word characters and dashes). */
export function lessonRunParams(lesson: Lesson, side: PitfallSide): RunParams {
  return { strategy: side.strategy, ...side.settings, scenario: `lesson-${lesson.id}` };
}
