import type { Localized } from '@oversell/contracts';

/** One term the articles on distributed locks use: its name and what it means, in every language. */
export interface GlossaryEntry {
  term: Localized;
  explanation: Localized;
}

/** The glossary page's terms, and the words the Chinese texts use for them (written once here). */
export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    term: { en: 'oversold / units sold twice', 'zh-CN': '超卖 / 重复卖出' },
    explanation: {
      en: 'More units are sold than the stock held, usually because two orders read and wrote the same stock value.',
      'zh-CN': '卖出的件数超过实际库存，通常是因为两笔订单读写了同一个库存值。',
    },
  },
  {
    term: { en: 'distributed lock', 'zh-CN': '分布式锁' },
    explanation: {
      en: 'A lock kept in a shared store (Redis, a database, etcd, ZooKeeper) so that processes on different machines take turns on one resource.',
      'zh-CN': '存放在共享存储（Redis、数据库、etcd、ZooKeeper）中的锁，让不同机器上的进程轮流访问同一资源。',
    },
  },
  {
    term: { en: 'mutual exclusion', 'zh-CN': '互斥' },
    explanation: {
      en: 'At most one holder is inside the critical section at any moment.',
      'zh-CN': '任一时刻最多只有一个持有者在临界区内。',
    },
  },
  {
    term: { en: 'lock lease / TTL', 'zh-CN': '锁租约 / TTL' },
    explanation: {
      en: 'The time a lock is granted for; when it runs out the store frees the lock by itself.',
      'zh-CN': '锁被授予的时长；到期后由存储自行释放这把锁。',
    },
  },
  {
    term: { en: 'lock expiry', 'zh-CN': '锁过期' },
    explanation: {
      en: 'The lease running out; if the holder is still working, a second order can take the lock and both write.',
      'zh-CN': '租约到期；若持有者还在执行业务，第二笔订单就能拿到锁，两者都会写入。',
    },
  },
  {
    term: { en: 'watchdog', 'zh-CN': '看门狗' },
    explanation: {
      en: "A timer in the holder's process that keeps renewing the lease while the holder lives (Redisson's approach).",
      'zh-CN': '持有者进程中的定时器，在持有者活着时不断为租约续期（Redisson 的做法）。',
    },
  },
  {
    term: { en: 'lease renewal', 'zh-CN': '续期' },
    explanation: {
      en: "Extending a held lock's TTL before it runs out, only while the caller still owns it.",
      'zh-CN': '在租约到期前延长所持锁的 TTL，前提是调用者仍持有这把锁。',
    },
  },
  {
    term: { en: "mis-deletion (deleting another's lock)", 'zh-CN': '误删（删掉别人的锁）' },
    explanation: {
      en: 'A holder whose lease already ran out releases with a plain DEL and removes the lock the next holder now owns.',
      'zh-CN': '租约已过期的持有者直接 DEL 释放，删掉的是下一个持有者此刻持有的锁。',
    },
  },
  {
    term: { en: 'owner token', 'zh-CN': '持有者令牌' },
    explanation: {
      en: "A unique value (e.g. a UUID) written into the lock so that a holder can tell its own lock from someone else's.",
      'zh-CN': '写进锁里的唯一值（如 UUID），让持有者能区分自己的锁和别人的锁。',
    },
  },
  {
    term: { en: 'compare-and-delete', 'zh-CN': '比较并删除' },
    explanation: {
      en: "Deleting the lock key only if it still holds the caller's token, done as one atomic step (a Lua script).",
      'zh-CN': '只有锁 key 的值仍是调用者的令牌时才删除，整个过程作为一个原子步骤完成（Lua 脚本）。',
    },
  },
  {
    term: { en: 'atomicity', 'zh-CN': '原子性' },
    explanation: {
      en: 'A group of operations that runs as one indivisible step, with nothing from other clients interleaved.',
      'zh-CN': '一组操作作为一个不可分割的步骤执行，中间不会穿插其他客户端的操作。',
    },
  },
  {
    term: { en: 'Lua script (EVAL)', 'zh-CN': 'Lua 脚本（EVAL）' },
    explanation: {
      en: 'A script Redis runs as a whole without interleaving other commands, used to make check-then-act steps atomic.',
      'zh-CN': 'Redis 整体执行、不穿插其他命令的脚本，用来让“先检查再操作”变成原子步骤。',
    },
  },
  {
    term: { en: 'reentrant lock', 'zh-CN': '可重入锁' },
    explanation: {
      en: 'A lock its holder may take again without blocking itself; it counts the holds and frees at zero.',
      'zh-CN': '持有者可以再次获取、不会把自己阻塞的锁；它记录重入次数，减到零时才释放。',
    },
  },
  {
    term: { en: 'fencing token', 'zh-CN': '栅栏令牌（fencing token）' },
    explanation: {
      en: 'A number that grows with every grant; the store refuses writes carrying a token lower than the highest it has seen.',
      'zh-CN': '每次授予锁时递增的编号；存储会拒绝令牌小于它见过的最大令牌的写入。',
    },
  },
  {
    term: { en: 'stop-the-world / GC pause', 'zh-CN': 'stop-the-world / GC 停顿' },
    explanation: {
      en: 'The whole process freezes (a long GC, a frozen VM), renewals included, while the lease keeps running out.',
      'zh-CN': '整个进程冻结（长时间 GC、虚拟机被挂起），续期也一并停下，而租约照样在流逝。',
    },
  },
  {
    term: { en: 'clock drift / clock jump', 'zh-CN': '时钟漂移 / 时钟跳变' },
    explanation: {
      en: "Machines' clocks run at different rates or jump (NTP, manual change), breaking locks that judge expiry by a local clock.",
      'zh-CN': '各机器的时钟快慢不一或发生跳变（NTP、手动修改），会破坏按本地时钟判断过期的锁。',
    },
  },
  {
    term: { en: 'RedLock', 'zh-CN': 'RedLock（红锁）' },
    explanation: {
      en: "Redis's multi-node lock algorithm: take the same key on N independent masters and hold the lock only with a majority within the validity time.",
      'zh-CN': 'Redis 的多节点锁算法：在 N 个独立主节点上获取同一个 key，只有在有效期内拿到多数才算持有锁。',
    },
  },
  {
    term: { en: 'majority / quorum', 'zh-CN': '多数派 / 法定人数（quorum）' },
    explanation: {
      en: 'More than half of the nodes (3 of 5); two majorities always share a node, so two holders cannot both have one.',
      'zh-CN': '超过半数的节点（5 个中的 3 个）；任意两个多数派必有交集，所以两个持有者不可能同时拿到多数。',
    },
  },
  {
    term: { en: 'master–replica failover', 'zh-CN': '主从切换' },
    explanation: {
      en: 'The master dies and a replica (promoted by Sentinel) takes over, possibly without the latest writes.',
      'zh-CN': '主节点宕机后，Sentinel 把一个副本提升为新的主节点，它可能缺少最近的写入。',
    },
  },
  {
    term: { en: 'asynchronous replication', 'zh-CN': '异步复制' },
    explanation: {
      en: 'The master answers before the replica has the write, so a failover in that gap loses it, lock keys included.',
      'zh-CN': '主节点在副本收到写入之前就已返回成功，若在这个间隙发生切换，写入就会丢失，锁 key 也不例外。',
    },
  },
  {
    term: { en: 'persistence (AOF / fsync)', 'zh-CN': '持久化（AOF / fsync）' },
    explanation: {
      en: 'Writing Redis data to disk; with AOF and fsync always a restarted node comes back with the grants it held.',
      'zh-CN': '把 Redis 数据写到磁盘；开启 AOF 并配置 fsync always 时，重启后的节点仍记得它授出的锁。',
    },
  },
  {
    term: { en: 'ZooKeeper ephemeral sequential node', 'zh-CN': 'ZooKeeper 临时顺序节点' },
    explanation: {
      en: "A node numbered in creation order that disappears with its client's session; the lowest number holds the lock.",
      'zh-CN': '按创建顺序编号、随客户端会话消失的节点；序号最小者持有锁。',
    },
  },
  {
    term: { en: 'etcd lease', 'zh-CN': 'etcd 租约' },
    explanation: {
      en: 'A TTL the client keeps alive; keys bound to it are deleted when it is no longer kept alive.',
      'zh-CN': '由客户端保活的 TTL；一旦不再保活，绑定在它上面的 key 就会被删除。',
    },
  },
  {
    term: { en: 'optimistic lock / version check', 'zh-CN': '乐观锁 / 版本号检查' },
    explanation: {
      en: "No lock is held; the write succeeds only if the row's version is unchanged since it was read, otherwise retry.",
      'zh-CN': '不持有锁；只有当行的版本号自读取后未变时写入才成功，否则重试。',
    },
  },
  {
    term: { en: 'pessimistic lock / SELECT … FOR UPDATE', 'zh-CN': '悲观锁 / SELECT … FOR UPDATE' },
    explanation: {
      en: 'The row is locked when read and stays locked until the transaction commits, so others wait.',
      'zh-CN': '读取时就锁住这一行，直到事务提交才释放，其他人只能等待。',
    },
  },
  {
    term: { en: 'conditional update', 'zh-CN': '条件更新' },
    explanation: {
      en: 'One statement that checks and writes together, e.g. UPDATE … SET stock = stock − n WHERE stock >= n.',
      'zh-CN': '一条语句同时完成检查和写入，例如 UPDATE … SET stock = stock − n WHERE stock >= n。',
    },
  },
  {
    term: { en: 'hot key', 'zh-CN': '热点 key' },
    explanation: {
      en: 'One key that every request needs, so everything queues behind its single lock.',
      'zh-CN': '每个请求都要访问的那个 key，于是所有请求都排队等它唯一的那把锁。',
    },
  },
  {
    term: { en: 'segmented stock', 'zh-CN': '分段库存' },
    explanation: {
      en: "Splitting one product's stock over several keys, each with its own lock, so orders proceed in parallel.",
      'zh-CN': '把同一商品的库存拆到多个 key 上，每个 key 各有一把锁，让订单并行处理。',
    },
  },
  {
    term: { en: 'idempotency key / double click', 'zh-CN': '幂等键 / 重复点击' },
    explanation: {
      en: 'A key sent with each request so that a repeated request (a double click, a retry) gets the same order instead of a new one.',
      'zh-CN': '每个请求携带的唯一键，让重复的请求（重复点击、重试）得到同一笔订单，而不会再生成一笔。',
    },
  },
  {
    term: { en: 'deadlock', 'zh-CN': '死锁' },
    explanation: {
      en: 'No one can proceed, e.g. a lock with no expiry left behind by a dead holder that nobody will ever release.',
      'zh-CN': '谁都无法继续，例如死掉的持有者留下一把没有过期时间、永远没人释放的锁。',
    },
  },
  {
    term: { en: 'retry storm', 'zh-CN': '重试风暴' },
    explanation: {
      en: 'Under contention most attempts fail and retry at once, so the work is wasted and throughput collapses.',
      'zh-CN': '竞争下大多数尝试失败并同时重试，做的都是无用功，吞吐随之骤降。',
    },
  },
  {
    term: { en: 'lost update', 'zh-CN': '更新丢失' },
    explanation: {
      en: 'Two read-modify-write cycles overlap and the later write silently overwrites the earlier one.',
      'zh-CN': '两次“读-改-写”相互重叠，后一次写入悄无声息地覆盖了前一次。',
    },
  },
  {
    term: { en: 'double grant', 'zh-CN': '重复授予' },
    explanation: {
      en: 'The lock is given to a second holder while the first still believes it holds it.',
      'zh-CN': '第一个持有者仍以为自己持有锁时，锁又被授予了第二个持有者。',
    },
  },
];
