import { defineStrategy } from '../strategy-entry';

export const naiveSetnx = defineStrategy({
  name: 'naive-setnx',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  needs: [],
  texts: {
    en: {
      title: 'Naive SETNX lock',
      description: 'Takes the lock with SET lock 1 NX PX ttl, spins with jittered backoff while it is taken, and releases with a plain DEL.',
      guarantee: 'Mutual exclusion only while every holder finishes within the lock TTL.',
      pitfall: 'When the business time exceeds the TTL the lock expires under its holder; a second order takes it and reads the same stock. The first then DELs the lock that now belongs to the second, letting a third in. Overlapping holders oversell.',
      reproduce: 'Business delay > lock TTL (e.g. TTL 100 ms, delay 250 ms).',
      symptom: 'With a business delay above the lock TTL, bars get a dashed outline (lease expired) and turn red where a second holder took the same key; the oversold counter follows above 0.',
      steps: [
        'SET lock 1 NX PX ttl (retry with backoff until the wait times out)',
        'GET stock',
        'if stock < n: sold out',
        'business delay',
        'SET stock = stock − n',
        'INSERT the order',
        'DEL lock (whoever holds it)',
      ],
    },
    'zh-CN': {
      title: '朴素 SETNX 锁',
      description: '用 SET lock 1 NX PX ttl 加锁，锁被占用时带随机抖动退避自旋重试，释放时直接 DEL。',
      guarantee: '只有在每个持有者都在锁 TTL 内完成时才能互斥。',
      pitfall: '业务耗时超过 TTL 时，锁在持有者手里过期；第二笔订单拿到锁，读到同样的库存。随后第一笔订单 DEL 掉的已经是第二笔的锁，又放进了第三笔。持有者相互重叠，导致超卖。',
      reproduce: '业务耗时 > 锁 TTL（例如 TTL 100 ms、业务耗时 250 ms）。',
      symptom: '业务耗时超过锁 TTL 时，色条出现虚线边框（租约已过期），在第二个持有者拿到同一个 key 的地方变红；超卖计数器随之大于 0。',
      steps: [
        'SET lock 1 NX PX ttl（带退避重试，直到等待超时）',
        'GET stock',
        '若 stock < n：售罄',
        '业务耗时',
        'SET stock = stock − n',
        'INSERT 订单',
        'DEL lock（不管当前是谁持有）',
      ],
    },
  },
});
