import { defineStrategy } from '../strategy-entry';

export const dbOptimistic = defineStrategy({
  name: 'db-optimistic',
  kind: 'database',
  store: 'mysql',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: true,
  needs: [],
  texts: {
    en: {
      title: 'DB optimistic (version column)',
      description: 'Reads stock and version from the MySQL row, then runs UPDATE … SET stock = stock − n, version = version + 1 WHERE id = ? AND run_id = ? AND version = ? AND stock >= n inside a transaction with the order INSERT. No rows affected means a conflict: back off with jitter and retry, a bounded number of times.',
      guarantee: 'Never oversells: the conditional UPDATE is atomic in InnoDB, and stock and order commit together.',
      pitfall: 'Throughput collapses on one hot row: every success makes all concurrent readers conflict and retry (~150 orders/s here). Orders that exhaust their retries are refused (409 conflict) although stock remains.',
      reproduce: 'Many connections on one product: watch the conflict count and p99 latency climb.',
      symptom: 'Oversold stays 0; lost races show as "conflict retries" (and, past the retry limit, "conflict") in the outcome counts, and p99 latency climbs with the number of connections.',
      steps: [
        'SELECT stock, version',
        'if stock < n: sold out',
        'business delay',
        'BEGIN; UPDATE … WHERE version = ? AND stock >= n',
        'if 0 rows: ROLLBACK, back off, retry (bounded)',
        'INSERT the order; COMMIT',
      ],
      choice: {
        runsOn: 'MySQL/MariaDB only',
        complexity: 'low: a version column and a conditional UPDATE',
        reliability: 'never oversells; under contention most rounds fail their version check and retry',
        underFault: {
          crash: 'Nothing is held: a dead order leaves nothing behind.',
          pause: 'Nothing is held: a paused order finds the version moved on and retries.',
          'store-cut': 'The order fails with its connection; nothing is held, nothing written.',
          failover: 'As safe as the database: stock and order commit together or not at all.',
        },
      },
    },
    'zh-CN': {
      title: '数据库乐观锁（version 列）',
      description: '从 MySQL 行中读出 stock 和 version，然后在一个事务里执行 UPDATE … SET stock = stock − n, version = version + 1 WHERE id = ? AND run_id = ? AND version = ? AND stock >= n，并 INSERT 订单。没有受影响的行即为冲突：带随机抖动退避后重试，重试次数有上限。',
      guarantee: '不会超卖：条件 UPDATE 在 InnoDB 中是原子的，库存和订单一起提交。',
      pitfall: '单个热点行上吞吐会骤降：每一次成功都会让所有并发读者冲突并重试（这里约 150 订单/s）。用完重试次数的订单会被拒绝（409 conflict），尽管库存还有剩余。',
      reproduce: '多个连接下单同一件商品：观察冲突计数和 p99 延迟上升。',
      symptom: '超卖保持为 0；竞争失败在结果计数中显示为“版本冲突重试”（超过重试上限则为“版本冲突”），p99 延迟随连接数上升。',
      steps: [
        'SELECT stock, version',
        '若 stock < n：售罄',
        '业务耗时',
        'BEGIN; UPDATE … WHERE version = ? AND stock >= n',
        '若 0 行：ROLLBACK，退避，重试（有上限）',
        'INSERT 订单；COMMIT',
      ],
      choice: {
        runsOn: '仅需 MySQL/MariaDB',
        complexity: '低：一个 version 列加一条条件 UPDATE',
        reliability: '不会超卖；竞争下大多数轮次的版本检查失败并重试',
        underFault: {
          crash: '什么都不持有：死掉的订单不会留下任何东西。',
          pause: '什么都不持有：停顿的订单醒来发现版本已变，于是重试。',
          'store-cut': '订单随连接一起失败；什么都不持有，什么都没写入。',
          failover: '与数据库一样安全：库存和订单要么一起提交，要么都不提交。',
        },
      },
    },
  },
});
