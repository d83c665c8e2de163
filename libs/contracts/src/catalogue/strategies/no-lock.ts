import { defineStrategy } from '../strategy-entry';

export const noLock = defineStrategy({
  name: 'no-lock',
  kind: 'none',
  store: 'redis',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: false,
  needs: [],
  texts: {
    en: {
      title: 'No lock (baseline)',
      description: 'Reads the stock from Redis, checks it, spends the business time, then writes stock − n back. No lock, no atomic step.',
      guarantee: 'None under concurrency. Correct only when orders arrive one at a time.',
      pitfall: 'Lost update: concurrent orders read the same stock value and each writes its own stock − n, so many orders sell the same units. Oversells on every concurrent run.',
      reproduce: 'Any run with more than one connection; a business delay of a few ms makes it dramatic.',
      symptom: 'The red oversold counter goes above 0 and the "units sold" line crosses the dashed initial-stock line. The lock timeline stays empty: nothing is locked.',
      steps: [
        'GET stock',
        'if stock < n: sold out',
        'business delay',
        'SET stock = stock − n (a stale value if someone sold meanwhile)',
        'INSERT the order in MySQL',
      ],
    },
    'zh-CN': {
      title: '不加锁（基线）',
      description: '从 Redis 读出库存，检查，经过一段业务耗时，再把 stock − n 写回。不加锁，也没有任何原子步骤。',
      guarantee: '并发下毫无保证。只有订单逐个到达时才正确。',
      pitfall: '更新丢失：并发订单读到同一个库存值，各自写回自己算出的 stock − n，于是多笔订单卖掉了同一批库存。只要有并发，每次运行都会超卖。',
      reproduce: '任何多于一个连接的运行都行；再加上几 ms 的业务耗时，效果会非常明显。',
      symptom: '红色超卖计数器大于 0，“已售件数”曲线越过表示初始库存的虚线。锁时间线始终为空：什么都没加锁。',
      steps: [
        'GET stock',
        '若 stock < n：售罄',
        '业务耗时',
        'SET stock = stock − n（若期间有人卖出，这就是一个过期值）',
        '在 MySQL 中 INSERT 订单',
      ],
    },
  },
});
