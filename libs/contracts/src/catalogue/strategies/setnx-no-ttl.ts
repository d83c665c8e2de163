import { defineStrategy } from '../strategy-entry';

export const setnxNoTtl = defineStrategy({
  name: 'setnx-no-ttl',
  kind: 'lock',
  store: 'redis',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: false,
  needs: [],
  texts: {
    en: {
      title: 'SETNX without expiry',
      description: 'Takes the lock with SETNX lock 1 and nothing else (no TTL: the lock TTL setting is ignored), spins with jittered backoff while it is taken, and releases with a plain DEL.',
      guarantee: 'Mutual exclusion while every holder lives to release it, however long the business time: nothing expires under a holder, so it never oversells.',
      pitfall: 'A holder that dies inside (process killed or crashed, connection lost before its DEL) leaves the lock with no expiry, held forever. Every later order spins until its lock wait runs out and is refused with lock_timeout: a deadlock that sells nothing more, until someone deletes the key (the break-locks admin action).',
      reproduce: 'Kill the process that holds the lock (a crash at lock-acquired, see its test): from then on every order answers 503 lock_timeout and the stock stays where it was. POST /api/products/:id/break-locks lets orders sell again.',
      symptom: 'After a holder dies, the lock timeline shows no more bars (no one is granted the lock), lock_timeout climbs to every order, and sold and remaining stay flat. Nothing oversells. Throughput drops to zero, and no TTL ends it.',
      steps: [
        'SETNX lock 1 (retry with backoff until the wait times out); no expiry is set',
        'GET stock',
        'if stock < n: sold out',
        'business delay',
        'SET stock = stock − n',
        'INSERT the order',
        'DEL lock (whoever holds it)',
      ],
    },
    'zh-CN': {
      title: '不设过期的 SETNX',
      description: '只用 SETNX lock 1 加锁，别的什么都不做（没有 TTL：锁 TTL 设置被忽略）；锁被占用时带随机抖动退避自旋重试，释放时直接 DEL。',
      guarantee: '只要每个持有者都活着释放锁，无论业务耗时多长都能互斥：锁不会在持有者手里过期，所以永不超卖。',
      pitfall: '持有者若在临界区内死掉（进程被杀或崩溃、在 DEL 之前断开连接），留下的锁没有过期时间，会被永远占着。之后每笔订单都一直自旋到等锁超时，以 lock_timeout 被拒绝：形成死锁，再也卖不出任何东西，直到有人删掉这个 key（管理操作 break-locks）。',
      reproduce: '杀掉持有锁的进程（在 lock-acquired 处崩溃，见对应测试）：此后每笔订单都返回 503 lock_timeout，库存停在原处。POST /api/products/:id/break-locks 可以让订单恢复售卖。',
      symptom: '持有者死后，锁时间线上不再出现色条（没有人拿到锁），lock_timeout 增长到覆盖所有订单，已售和剩余都停滞不动。不会超卖。吞吐降到零，而且没有 TTL 来终结这种状态。',
      steps: [
        'SETNX lock 1（带退避重试，直到等待超时）；不设置过期时间',
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
