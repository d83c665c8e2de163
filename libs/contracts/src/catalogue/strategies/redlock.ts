import { defineStrategy } from '../strategy-entry';
import { QUORUM_LOCK_TRAITS } from './quorum-lock-traits';

export const redlock = defineStrategy({
  name: 'redlock',
  ...QUORUM_LOCK_TRAITS,
  benchLock: 'redlock',
  texts: {
    en: {
      title: 'RedLock on 5 Redis nodes (written out)',
      description: "RedLock as redis.io describes it, written out in the lock library: each order sends SET lock <token> NX PX ttl to five independent Redis masters at once (REDLOCK_NODES, not the lab's Redis; 500 ms per node at most). The lock is had when a majority (3 of 5) said OK and the validity, the TTL less the time the SETs took and the clocks' drift (1 % of the TTL + 2 ms), is still positive; otherwise the order deletes what it may have set and tries again after a short jittered backoff. Nothing extends the lease: the holder is told when its validity ends and then writes nothing. The stock stays in the lab's Redis, as for the other locks.",
      guarantee: 'At most one holder while a majority of the five nodes keep their keys and their clocks run at about the same rate: it survives 2 of 5 nodes down. A holder whose validity ran out before its write writes nothing (lock_lost). With 3 of 5 nodes down the lock cannot be decided: orders are refused with 503 lock_unavailable and nothing is taken.',
      pitfall: "No fencing token: a holder paused past its validity between its check and its write (a stop-the-world GC) writes on while the next holder is inside (Kleppmann's objection). Safety rests on timing: a node whose clock jumps forward expires the key early, and with the holder on a bare majority a second one forms (redlock-clock-jump preset). A node restarted without persistence forgets the grants it held, so a second majority can form (redis.io: AOF with fsync always, or keep a restarted node out for one TTL). Slow to hand over under contention (grant rate slow): every attempt is a round of five SETs, and waiters that retry together split the votes, none reaches 3, and all go round again; with many orders at once most of a flash sale can end lock_timeout.",
      reproduce: 'Business delay > lock TTL: the validity runs out under the holder, which answers lock_lost and sells nothing (no oversell, no sale). Stop 3 of the 5 nodes (infra/scripts/ensure-redis-nodes.sh stop-node <address>): orders answer lock_unavailable; with 2 stopped they still sell. Compare its throughput with uuid-lua and redlock-lib in npm run bench.',
      symptom: 'Lock bars never overlap while the business time fits in the TTL; above it orders end lock_lost rather than oversold. Throughput sits below uuid-lua: five SETs per attempt, and contended attempts that split the votes go round again.',
      steps: [
        'SET lock <token> NX PX ttl on all 5 nodes at once (500 ms per node at most)',
        'had when ≥ 3 said OK and validity = ttl − elapsed − (1 % of ttl + 2 ms) > 0; otherwise EVAL redlock-release on the nodes that may hold it, back off 2–50 ms with jitter and try again (until the lock wait runs out: lock_timeout; fewer than 3 nodes answering: lock_unavailable)',
        'GET stock, check, business delay',
        'if the validity has run out: stop, write nothing (lock_lost)',
        'SET stock − n, INSERT the order',
        'EVAL redlock-release on all 5 nodes: DEL only where the value is still <token>',
      ],
      choice: {
        runsOn: "five independent Redis masters (no replicas), besides the stock's Redis",
        complexity: 'high: a quorum of five, validity from elapsed time and clock drift, release on every node, jittered retries; five servers to run',
        reliability: 'exclusive while a majority (3 of 5) keep their keys and the clocks agree; no fencing token',
        underFault: {
          crash: "The dead holder's keys expire with the TTL on every node; the next majority forms after that.",
          pause: 'A holder paused past its validity between its check and its write writes on while the next holder is inside: oversold (no fencing token).',
          'store-cut': "Cut off past its validity (from the stock's Redis or the nodes), the holder is told by its own timer that the validity ended and writes nothing after (lock_lost); a write already past the check still lands.",
          failover: 'No replication to fail over: the same fault restarts one of the five nodes without its data, one whose loss leaves the holder a majority, and the second order is refused (master-failover preset). But a node restarted without persistence while the holder has only three forgets its grant and a second majority forms: oversold (redlock-node-restart preset; redlock-delayed-restart closes it).',
        },
      },
    },
    'zh-CN': {
      title: '5 个 Redis 节点上的 RedLock（手写实现）',
      description: '按 redis.io 的描述实现的 RedLock，手写在锁库中：每笔订单同时向五个独立的 Redis 主节点发送 SET lock <token> NX PX ttl（REDLOCK_NODES，不是实验室的那个 Redis；每个节点最多 500 ms）。当多数节点（5 个中的 3 个）返回 OK，且有效期——TTL 减去 SET 所花的时间和时钟漂移（TTL 的 1 % + 2 ms）——仍为正时，才算拿到锁；否则订单删除它可能已设置的 key，在一段带抖动的短暂退避后重试。没有任何东西为租约续期：有效期结束时持有者会被告知，之后不再写入。库存仍放在实验室的 Redis 中，与其他锁一样。',
      guarantee: '只要五个节点中的多数保住自己的 key、且各自时钟走速大致相同，最多只有一个持有者：能扛住 5 个节点中 2 个宕机。有效期在写入前耗尽的持有者不写入（lock_lost）。5 个节点中 3 个宕机时无法判定谁拿到锁：订单以 503 lock_unavailable 被拒绝，不扣任何库存。',
      pitfall: '没有栅栏令牌：在检查与写入之间停顿超过有效期的持有者（stop-the-world GC），会在下一个持有者已进入时照样写入（Kleppmann 的质疑）。安全性依赖时序：时钟向前跳变的节点会让 key 提前过期，持有者恰好只占多数时就会形成第二个多数派（redlock-clock-jump 预设）。未开持久化就重启的节点会忘掉它授出的锁，于是可能形成第二个多数派（redis.io 的建议：AOF 配 fsync always，或让重启的节点在一个 TTL 内不参与）。竞争激烈时移交很慢（授予速率慢）：每次尝试都是一轮五个 SET，一起重试的等待者会把票分散，谁都凑不到 3 票，全部再来一轮；大量订单同时涌入时，一场秒杀的大部分订单可能以 lock_timeout 告终。',
      reproduce: '业务耗时 > 锁 TTL：有效期在持有者手里耗尽，它返回 lock_lost，什么都不卖（不超卖，也没卖出）。停掉 5 个节点中的 3 个（infra/scripts/ensure-redis-nodes.sh stop-node <address>）：订单返回 lock_unavailable；停掉 2 个时仍能售卖。可在 npm run bench 中将其吞吐与 uuid-lua 和 redlock-lib 对比。',
      symptom: '只要业务耗时在 TTL 之内，锁色条从不重叠；超出时订单以 lock_lost 结束，而不是超卖。吞吐低于 uuid-lua：每次尝试五个 SET，竞争中票数分散的尝试还要再来一轮。',
      steps: [
        '同时在全部 5 个节点上 SET lock <token> NX PX ttl（每个节点最多 500 ms）',
        '≥ 3 个返回 OK 且 有效期 = ttl − 已耗时 − (ttl 的 1 % + 2 ms) > 0 时拿到锁；否则在可能持有它的节点上 EVAL redlock-release，带抖动退避 2–50 ms 后重试（直到等锁超时：lock_timeout；应答的节点少于 3 个：lock_unavailable）',
        'GET stock，检查，业务耗时',
        '若有效期已耗尽：停止，不写任何东西（lock_lost）',
        'SET stock − n，INSERT 订单',
        '在全部 5 个节点上 EVAL redlock-release：只在值仍是 <token> 的节点上 DEL',
      ],
      choice: {
        runsOn: '五个独立的 Redis 主节点（无副本），另加存放库存的 Redis',
        complexity: '高：五节点多数派，根据已耗时和时钟漂移算有效期，在每个节点上释放，带抖动重试；要运维五台服务器',
        reliability: '只要多数（5 个中的 3 个）保住 key 且时钟一致就互斥；没有栅栏令牌',
        underFault: {
          crash: '死掉的持有者在每个节点上的 key 都随 TTL 过期；之后才能形成下一个多数派。',
          pause: '在检查与写入之间停顿超过有效期的持有者，会在下一个持有者已进入时照样写入：超卖（没有栅栏令牌）。',
          'store-cut': '断连（与库存的 Redis 或与各节点）超过有效期时，持有者由自己的定时器得知有效期已结束，此后不再写入（lock_lost）；已经通过检查的写入照样落地。',
          failover: '没有复制，也就没有主从切换：同一个故障在这里表现为五个节点之一丢失数据后重启，而失去这个节点后持有者仍保有多数，于是第二笔订单被拒绝（master-failover 预设）。但若持有者只拿到三票时，其中一个节点未开持久化就重启，它会忘掉这次授出的锁，形成第二个多数派：超卖（redlock-node-restart 预设；redlock-delayed-restart 能堵住）。',
        },
      },
    },
  },
});
