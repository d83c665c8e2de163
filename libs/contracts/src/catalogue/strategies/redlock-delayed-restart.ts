import { defineStrategy } from '../strategy-entry';
import { QUORUM_LOCK_TRAITS } from './quorum-lock-traits';

export const redlockDelayedRestart = defineStrategy({
  name: 'redlock-delayed-restart',
  ...QUORUM_LOCK_TRAITS,
  texts: {
    en: {
      title: 'RedLock whose restarted nodes sit out one lease',
      description: 'The lab\'s redlock with redis.io\'s answer to a node restarted without persistence, "delayed restarts", kept by the clients: each order\'s process reads every node\'s uptime (INFO server) whenever it connects to it, and asks a node for a lease of lockTtlMs only once that node has been up that long. A node that restarted may have forgotten a grant it held; until every lease it could have held has run out, it does not vote, so a second majority cannot form on it. The quorum stays 3 of the 5.',
      guarantee: "As redlock, and also while a node restarts without its data: the restarted node is asked nothing for one lease, so a holder's grant on the others still blocks a second majority (redlock-node-restart preset). Refused with 503 lock_unavailable when fewer than 3 nodes can vote, e.g. in the first lease after the nodes started.",
      pitfall: "Safe only while every client of the key follows the rule and no client asks a longer lease of it than the others (the node sits out the lease asked, not the longest it held). Its cost is availability: for one lease after a restart the lock has a voter less, and a lab whose nodes just started grants nothing for the first lease. RedLock's own pitfalls stay: no fencing token, timing assumptions, a slow hand-over under contention.",
      reproduce: 'npm run pitfalls -- --preset redlock-node-restart: under the same node restart redlock grants the lock twice and sells the one unit twice; this strategy refuses the second order until the holder is done.',
      symptom: 'Lock bars never overlap, also across a node restart; orders right after the restart wait (or end lock_timeout) instead of overlapping the holder.',
      steps: [
        "on (re)connecting to a node: INFO server → the node's uptime; it votes for a lease of ttl once it has been up ttl ms",
        'SET lock <token> NX PX ttl on the nodes that vote (500 ms per node at most)',
        'had when ≥ 3 of the 5 said OK and validity = ttl − elapsed − (1 % of ttl + 2 ms) > 0; otherwise EVAL redlock-release where it may have set, back off and try again (fewer than 3 nodes answering: lock_unavailable)',
        'GET stock, check, business delay',
        'if the validity has run out: stop, write nothing (lock_lost)',
        'SET stock − n, INSERT the order',
        'EVAL redlock-release on all 5 nodes: DEL only where the value is still <token>',
      ],
    },
    'zh-CN': {
      title: '重启节点先停投一个租约期的 RedLock',
      description: '实验室的 redlock，加上 redis.io 针对“节点未开持久化就重启”给出的对策——“延迟重启”（delayed restarts），由客户端来执行：每个订单进程在每次连接某个节点时读取其运行时长（INFO server），只有当该节点已运行满 lockTtlMs 时，才向它申请 lockTtlMs 的租约。重启过的节点可能忘掉了它授出的锁；在它可能持有的所有租约都过期之前，它不参与投票，因此不会借它形成第二个多数派。法定票数仍是 5 个中的 3 个。',
      guarantee: '同 redlock，而且在节点丢失数据重启时同样成立：重启的节点在一个租约期内不会被请求任何东西，因此持有者在其他节点上拿到的锁仍能阻止第二个多数派（redlock-node-restart 预设）。能投票的节点少于 3 个时（例如节点刚启动后的第一个租约期内），以 503 lock_unavailable 拒绝。',
      pitfall: '只有当该 key 的所有客户端都遵守这条规则、且没有客户端申请比别人更长的租约时才安全（节点停投的时长是被申请的租约时长，而不是它授出过的最长租约）。代价是可用性：重启后的一个租约期内，锁少了一个投票者；节点刚启动的实验室在第一个租约期内什么都授予不了。RedLock 本身的陷阱依旧：没有栅栏令牌，依赖时序假设，竞争下移交缓慢。',
      reproduce: 'npm run pitfalls -- --preset redlock-node-restart：在同样的节点重启下，redlock 会两次授予锁，把那唯一一件库存卖两次；这个策略则会拒绝第二笔订单，直到持有者完成。',
      symptom: '锁色条从不重叠，跨越节点重启时也一样；重启刚发生后的订单会等待（或以 lock_timeout 结束），而不是与持有者重叠。',
      steps: [
        '（重新）连接某节点时：INFO server → 该节点的运行时长；它运行满 ttl ms 后才为 ttl 的租约投票',
        '在参与投票的节点上 SET lock <token> NX PX ttl（每个节点最多 500 ms）',
        '5 个中 ≥ 3 个返回 OK 且 有效期 = ttl − 已耗时 − (ttl 的 1 % + 2 ms) > 0 时拿到锁；否则在可能已设置的节点上 EVAL redlock-release，退避后重试（应答的节点少于 3 个：lock_unavailable）',
        'GET stock，检查，业务耗时',
        '若有效期已耗尽：停止，不写任何东西（lock_lost）',
        'SET stock − n，INSERT 订单',
        '在全部 5 个节点上 EVAL redlock-release：只在值仍是 <token> 的节点上 DEL',
      ],
    },
  },
});
