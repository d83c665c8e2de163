import { defineStrategy } from '../strategy-entry';

export const dbPessimistic = defineStrategy({
  name: 'db-pessimistic',
  kind: 'database',
  store: 'mysql',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: true,
  needs: [],
  texts: {
    en: {
      title: 'DB pessimistic (SELECT … FOR UPDATE)',
      description: "Opens a transaction and locks the product row with SELECT stock … FOR UPDATE; checks the stock, does the business, runs UPDATE … SET stock = stock − n and the order INSERT, and commits, which releases the row lock. Concurrent orders queue for the row lock inside InnoDB, each waiting at most the lab's lock wait.",
      guarantee: 'Never oversells: InnoDB grants the row lock to one transaction at a time and holds it until commit, so the stock read under it cannot go stale, and stock and order commit together. A holder whose connection dies is rolled back by the server, releasing the lock with nothing taken.',
      pitfall: 'The row lock is held for the whole business time, so every order of a product serializes on the database: at most 1000 / (business delay in ms) orders/s, and below db-conditional even with no business delay, each holding a pooled connection meanwhile; a holder that pauses inside blocks everyone behind it. Orders that wait longer than the lock wait (whole seconds for InnoDB), or that a deadlock picks as its victim, are rolled back and answered lock_timeout.',
      reproduce: 'Raise the business delay or pause one holder at stock-read (see its test): every other order of the product waits on the row lock.',
      symptom: 'Oversold stays 0; throughput sits far below db-conditional and falls as the business delay grows, p99 latency climbs with the connections, and long waits show as "lock timeout" in the outcome counts. The lock timeline stays empty: the row lock lives in InnoDB, not in Redis.',
      steps: [
        'BEGIN; SET SESSION innodb_lock_wait_timeout = the wait left (whole seconds)',
        'SELECT stock … FOR UPDATE (waits for the row lock)',
        'if no row: not seeded; if stock < n: sold out',
        'business delay (holding the row lock)',
        'UPDATE … SET stock = stock − n',
        'INSERT the order; COMMIT (releases the row lock)',
        'lock wait timeout or deadlock: ROLLBACK, lock timeout',
      ],
      choice: {
        runsOn: 'MySQL/MariaDB only',
        complexity: 'low: SELECT … FOR UPDATE inside a transaction',
        reliability: 'never oversells: the row lock lives and dies with the transaction',
        underFault: {
          crash: 'The connection closes and InnoDB rolls the transaction back, freeing the row lock at once.',
          pause: 'The row stays locked while the holder is paused; the others wait (bounded by the lock wait timeout); nothing is sold twice.',
          'store-cut': 'The transaction dies with its connection and is rolled back: the order fails, nothing is written.',
          failover: 'As safe as the database: stock and order commit together or not at all.',
        },
      },
    },
    'zh-CN': {
      title: '数据库悲观锁（SELECT … FOR UPDATE）',
      description: '开启事务，用 SELECT stock … FOR UPDATE 锁住商品行；检查库存、执行业务、执行 UPDATE … SET stock = stock − n 并 INSERT 订单，然后提交，提交时释放行锁。并发订单在 InnoDB 内部排队等行锁，每笔最多等实验室设定的锁等待时间。',
      guarantee: '不会超卖：InnoDB 同一时间只把行锁授予一个事务，并一直持有到提交，所以在行锁下读到的库存不会过期，库存和订单一起提交。持有者的连接断开时，服务器会回滚其事务，释放锁，不扣任何库存。',
      pitfall: '行锁在整个业务耗时内都被持有，所以同一件商品的所有订单都在数据库上串行：最多 1000 / （业务耗时 ms 数）订单/s，即使业务耗时为 0 也低于 db-conditional，且期间每笔都占着一个连接池连接；在临界区内停顿的持有者会堵住后面所有人。等待超过锁等待时间（InnoDB 以整秒计）的订单，或被死锁选为牺牲者的订单，会被回滚并返回 lock_timeout。',
      reproduce: '调大业务耗时，或让一个持有者在 stock-read 处停顿（见对应测试）：该商品的其他所有订单都在等行锁。',
      symptom: '超卖保持为 0；吞吐远低于 db-conditional，并随业务耗时增大而下降，p99 延迟随连接数上升，长时间等待在结果计数中显示为“等锁超时”。锁时间线为空：行锁在 InnoDB 里，而不在 Redis 里。',
      steps: [
        'BEGIN; SET SESSION innodb_lock_wait_timeout = 剩余的等待时间（整秒）',
        'SELECT stock … FOR UPDATE（等待行锁）',
        '若没有这一行：未初始化库存；若 stock < n：售罄',
        '业务耗时（持有行锁）',
        'UPDATE … SET stock = stock − n',
        'INSERT 订单；COMMIT（释放行锁）',
        '锁等待超时或死锁：ROLLBACK，lock timeout',
      ],
      choice: {
        runsOn: '仅需 MySQL/MariaDB',
        complexity: '低：事务内的 SELECT … FOR UPDATE',
        reliability: '不会超卖：行锁与事务同生共死',
        underFault: {
          crash: '连接关闭，InnoDB 回滚事务，行锁立即释放。',
          pause: '持有者停顿期间这一行一直被锁着；其他人等待（受锁等待超时限制）；不会重复卖出。',
          'store-cut': '事务随连接一起终止并被回滚：订单失败，什么都没写入。',
          failover: '与数据库一样安全：库存和订单要么一起提交，要么都不提交。',
        },
      },
    },
  },
});
