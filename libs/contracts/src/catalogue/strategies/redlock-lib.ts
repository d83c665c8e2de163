import { defineStrategy } from '../strategy-entry';
import { QUORUM_LOCK_TRAITS } from './quorum-lock-traits';

export const redlockLib = defineStrategy({
  name: 'redlock-lib',
  ...QUORUM_LOCK_TRAITS,
  benchLock: 'redlock-lib',
  texts: {
    en: {
      title: 'RedLock on 5 Redis nodes (@sesamecare-oss/redlock)',
      description: "The same RedLock through npm's maintained library, @sesamecare-oss/redlock (node-redlock for ioredis 5), with its defaults: the reference for the lab's own redlock, on the same five nodes (REDLOCK_NODES). Each attempt runs a Lua script on every node that sets the key unless it exists, and is decided as soon as a majority voted either way; a failed attempt keeps the keys it set and tries again with the same value after 200 ± 100 ms (it releases them only when it gives up), and the script refuses a node that holds the key, its own leftover key included. A release is sent once (the library's default retries a release 10 times). The library names the holder itself (random bytes). The stock stays in the lab's Redis, as for the other locks.",
      guarantee: 'As redlock: at most one holder while a majority of the five nodes keep their keys and their clocks agree; survives 2 of 5 nodes down; with 3 of 5 down orders are refused with 503 lock_unavailable and nothing is taken. A holder past its expiration writes nothing (lock_lost).',
      pitfall: "Built for locks that are rarely contended: once waiters split the votes, each keeps the keys it won while it retries, and no node holding a key grants it again, its own holder's retry included, so no one can reach a majority until those keys expire (up to one TTL). A hot key is handed over about once per TTL (grant rate slow) and most orders of a flash sale give up (lock_timeout). It computes the expiration but does not refuse a grant whose acquire took longer than it (the holder is then told at once: lock_lost). Otherwise RedLock's own: no fencing token, timing assumptions, a node restarted empty forgets its grants.",
      reproduce: 'Any contended run: compare its sold/s and lock_timeout count with redlock on the same nodes in npm run bench. Stop 3 of the 5 nodes (infra/scripts/ensure-redis-nodes.sh stop-node <address>): orders answer lock_unavailable; with 2 stopped they still sell.',
      symptom: 'Lock bars never overlap, with gaps of up to a TTL between them under contention: a split vote blocks the key until the keys it left expire. Throughput far below redlock on the same nodes, and many lock_timeout answers.',
      steps: [
        "EVAL (the library's) on all 5 nodes: SET lock <value> PX ttl unless it exists; decided once a majority voted",
        'had with ≥ 3 votes; otherwise keep what was set and retry with the same value after 200 ± 100 ms (a node holding the key, ours included, refuses); giving up when the lock wait runs out, release what was set once (lock_timeout; fewer than 3 nodes answering: lock_unavailable)',
        'GET stock, check, business delay',
        'if the expiration has passed: stop, write nothing (lock_lost)',
        'SET stock − n, INSERT the order',
        "EVAL (the library's) on all 5 nodes, once: DEL only where the value is still ours",
      ],
      choice: {
        runsOn: "five independent Redis masters (no replicas), besides the stock's Redis; one npm package",
        complexity: 'low to write (a maintained library), high to run: five servers, and the same timing assumptions as redlock',
        reliability: 'as redlock: exclusive while a majority (3 of 5) keep their keys and the clocks agree; no fencing token; hands a hot key over about once per TTL once waiters split the votes',
        underFault: {
          crash: "The dead holder's keys expire with the TTL on every node; the next majority forms after that, at the next 200 ± 100 ms retry.",
          pause: 'A holder paused past its expiration between its check and its write writes on while the next holder is inside: oversold (no fencing token).',
          'store-cut': 'Cut off past its expiration, the holder is told by its own timer that the lock ended and writes nothing after (lock_lost); a write already past the check still lands.',
          failover: 'No replication to fail over: one node of five lost leaves a second client two votes at most, no majority, refused. A node restarted without persistence forgets its grants and a second majority can form.',
        },
      },
    },
    'zh-CN': {
      title: '5 个 Redis 节点上的 RedLock（@sesamecare-oss/redlock）',
      description: '同样的 RedLock，改用 npm 上有人维护的库 @sesamecare-oss/redlock（适配 ioredis 5 的 node-redlock），使用其默认配置：作为实验室自写 redlock 的参照，跑在同样的五个节点上（REDLOCK_NODES）。每次尝试在每个节点上运行一个 Lua 脚本，key 不存在时才设置，只要多数节点投出了结果（无论赞成还是反对）就立即判定；失败的尝试保留已设置的 key，在 200 ± 100 ms 后用相同的值重试（只有放弃时才释放它们），而脚本会拒绝已持有该 key 的节点，包括它自己残留的 key。释放只发送一次（该库默认会把释放重试 10 次）。持有者的名字由库自己生成（随机字节）。库存仍放在实验室的 Redis 中，与其他锁一样。',
      guarantee: '同 redlock：只要五个节点中的多数保住 key 且时钟一致，最多只有一个持有者；能扛住 5 个中 2 个宕机；5 个中 3 个宕机时订单以 503 lock_unavailable 被拒绝，不扣任何库存。超过过期时间的持有者不写入（lock_lost）。',
      pitfall: '它是为很少竞争的锁设计的：一旦等待者把票分散，每个等待者在重试期间都保留自己赢下的 key，而持有 key 的节点不会再次授予，连它自己的持有者重试也不行，于是在这些 key 过期之前（最长一个 TTL）谁都凑不到多数。热点 key 大约每个 TTL 才移交一次（授予速率慢），秒杀中的大部分订单都会放弃（lock_timeout）。它会计算过期时间，但不会拒绝加锁耗时已超过过期时间的授予（此时持有者会立即被告知：lock_lost）。其余是 RedLock 本身的问题：没有栅栏令牌，依赖时序假设，丢了数据重启的节点会忘掉它授出的锁。',
      reproduce: '任何有竞争的运行：在 npm run bench 中，于同一组节点上将它的每秒售出数和 lock_timeout 数与 redlock 对比。停掉 5 个节点中的 3 个（infra/scripts/ensure-redis-nodes.sh stop-node <address>）：订单返回 lock_unavailable；停掉 2 个时仍能售卖。',
      symptom: '锁色条从不重叠，但竞争下色条之间有最长一个 TTL 的空档：分票会把 key 堵住，直到留下的 key 过期。吞吐远低于同一组节点上的 redlock，并有大量 lock_timeout 应答。',
      steps: [
        '在全部 5 个节点上 EVAL（库自带的脚本）：key 不存在时 SET lock <value> PX ttl；多数节点投票后即判定',
        '≥ 3 票则拿到锁；否则保留已设置的 key，在 200 ± 100 ms 后用相同的值重试（持有该 key 的节点会拒绝，包括我们自己的）；等锁超时则放弃，把已设置的 key 释放一次（lock_timeout；应答的节点少于 3 个：lock_unavailable）',
        'GET stock，检查，业务耗时',
        '若已过过期时间：停止，不写任何东西（lock_lost）',
        'SET stock − n，INSERT 订单',
        '在全部 5 个节点上 EVAL（库自带的脚本）一次：只在值仍是我们的节点上 DEL',
      ],
      choice: {
        runsOn: '五个独立的 Redis 主节点（无副本），另加存放库存的 Redis；一个 npm 包',
        complexity: '写起来简单（有人维护的库），运维成本高：五台服务器，且时序假设与 redlock 相同',
        reliability: '同 redlock：只要多数（5 个中的 3 个）保住 key 且时钟一致就互斥；没有栅栏令牌；一旦等待者分票，热点 key 大约每个 TTL 才移交一次',
        underFault: {
          crash: '死掉的持有者在每个节点上的 key 都随 TTL 过期；之后，在下一次 200 ± 100 ms 的重试时形成下一个多数派。',
          pause: '在检查与写入之间停顿超过过期时间的持有者，会在下一个持有者已进入时照样写入：超卖（没有栅栏令牌）。',
          'store-cut': '断连超过过期时间时，持有者由自己的定时器得知锁已结束，此后不再写入（lock_lost）；已经通过检查的写入照样落地。',
          failover: '没有复制，也就没有主从切换：五个节点丢失一个时，第二个客户端最多拿到两票，凑不成多数，被拒绝。未开持久化就重启的节点会忘掉它授出的锁，可能形成第二个多数派。',
        },
      },
    },
  },
});
