import { defineStrategy } from '../strategy-entry';

export const segmented = defineStrategy({
  name: 'segmented',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs', 'segments'],
  lease: 'fixed',
  // Its segment locks are uuid-lua's: a business time past the TTL double-grants a segment.
  safe: false,
  needs: [],
  texts: {
    en: {
      title: 'Segmented stock',
      description: "Splits the stock over N Redis keys (default 5), each guarded by its own owner-token lock. One unlocked MGET finds the segments that can still cover the order; the order joins this process's shortest line among them, takes that segment's lock, and moves on if the segment turned out short.",
      guarantee: 'Never oversells while business time < TTL: each segment is an owner-token lock (Lua release) over its own stock key. Up to N orders proceed in parallel.',
      pitfall: 'Each segment lock has the same lease pitfall as uuid-lua (business delay > TTL double-grants a segment). And fragmentation: an order for more units than any single segment holds is refused although the total would cover it.',
      reproduce: 'Business delay > lock TTL oversells per segment; an order of 3 units when each segment holds 2 shows fragmentation.',
      symptom: 'Several lock keys are held at once, stacked in the lanes but not red (different keys), and throughput beats the single-lock strategies in the compare view. With a business delay above the TTL one segment is granted twice: red bars on that key, and the oversold counter goes above 0.',
      steps: [
        'MGET every segment (unlocked): segments short of n are skipped — stock only falls, so that hint can only err towards sold out; none left means sold out',
        'join the shortest in-process line among the remaining segments (one order per process at a time per segment)',
        'SET segment-lock <token> NX PX ttl (spin with backoff against the other processes)',
        'GET segment stock; if < n, release and try the next segment',
        'business delay',
        'SET segment stock − n',
        'INSERT the order',
        'release the segment lock (Lua compare-and-delete)',
      ],
    },
    'zh-CN': {
      title: '分段库存',
      description: '把库存拆到 N 个 Redis key 上（默认 5 个），每段由自己的持有者令牌锁保护。先用一次不加锁的 MGET 找出仍能满足这笔订单的分段；订单加入本进程在这些分段中最短的那条队列，拿到该分段的锁，若发现该段库存不够，就换下一段。',
      guarantee: '业务耗时 < TTL 时不会超卖：每个分段都是一把守护自己库存 key 的持有者令牌锁（Lua 释放）。最多 N 笔订单并行处理。',
      pitfall: '每个分段锁都有与 uuid-lua 相同的租约陷阱（业务耗时 > TTL 会重复授予某个分段）。还有碎片化：一笔订单要的件数超过任何单个分段的库存时会被拒绝，尽管总库存足够。',
      reproduce: '业务耗时 > 锁 TTL 会在单个分段内超卖；每段只有 2 件时，一笔 3 件的订单就能展示碎片化。',
      symptom: '同时有多个锁 key 被持有，在泳道中层叠但不变红（不同的 key），对比视图中吞吐超过单锁策略。业务耗时超过 TTL 时某个分段被授予两次：该 key 上出现红色色条，超卖计数器大于 0。',
      steps: [
        'MGET 所有分段（不加锁）：跳过不足 n 的分段——库存只减不增，所以这个提示只可能误判为售罄；一个都不剩即为售罄',
        '在剩余分段中加入进程内最短的那条队列（每个进程每个分段同一时间只处理一笔订单）',
        'SET segment-lock <token> NX PX ttl（与其他进程竞争时带退避自旋）',
        'GET 分段库存；若 < n，释放锁，尝试下一段',
        '业务耗时',
        'SET 分段库存 − n',
        'INSERT 订单',
        '释放分段锁（Lua 比较并删除）',
      ],
    },
  },
});
