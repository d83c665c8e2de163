import { defineStrategy } from '../strategy-entry';

export const dbConditional = defineStrategy({
  name: 'db-conditional',
  kind: 'database',
  store: 'mysql',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: true,
  needs: [],
  texts: {
    en: {
      title: 'DB conditional UPDATE (atomic decrement)',
      description: 'Does the business first, then in one short transaction runs UPDATE … SET stock = stock − n WHERE id = ? AND run_id = ? AND stock >= n and, if a row changed, the order INSERT. The database checks and decrements in one statement: no version, no retry. No row changed means sold out, or, when the run has no row at all, stock not seeded.',
      guarantee: 'Never oversells: InnoDB evaluates stock >= n on the latest committed row under the row lock its UPDATE takes, so two orders cannot both take the last unit, and stock and order commit together. Concurrent orders never conflict; they queue for the row only for the UPDATE, the INSERT and the commit.',
      pitfall: 'Every order of a product still serializes on one row for UPDATE + INSERT + commit, a few round trips, so it stays well below lua-decrement, holding a pooled connection meanwhile. The business runs before the stock is taken, so orders spend it even when they then find the stock sold out. A transaction that stalls holding the row makes the others wait; a lock wait timeout or a deadlock is rolled back and answered lock_timeout.',
      reproduce: 'Run it and db-optimistic on the same product with many connections: db-conditional sells every unit with 0 conflict retries while db-optimistic retries (see its test).',
      symptom: 'Oversold stays 0 and "conflict retries" stays 0 where db-optimistic\'s climbs; in the compare view its throughput bar stands well above db-optimistic and db-pessimistic, below lua-decrement.',
      steps: [
        'business delay (before the transaction, no lock held)',
        'BEGIN; UPDATE … SET stock = stock − n WHERE … AND stock >= n',
        'if 0 rows: SELECT stock: a row means sold out, no row means not seeded (nothing changed)',
        'INSERT the order; COMMIT',
        'lock wait timeout or deadlock: ROLLBACK, lock timeout',
      ],
      choice: {
        runsOn: 'MySQL/MariaDB only',
        complexity: 'lowest: one UPDATE … WHERE stock >= n',
        reliability: 'never oversells: the check and the write are one statement',
        underFault: {
          crash: 'Nothing is held beyond the statement: the transaction rolls back.',
          pause: 'Nothing is held between statements: a pause delays only its own order.',
          'store-cut': 'The order fails with its connection; nothing written.',
          failover: 'As safe as the database: stock and order commit together or not at all.',
        },
      },
    },
    'zh-CN': {
      title: '数据库条件 UPDATE（原子扣减）',
      description: '先执行业务，再在一个短事务里执行 UPDATE … SET stock = stock − n WHERE id = ? AND run_id = ? AND stock >= n，若有行被修改，再 INSERT 订单。数据库在一条语句里完成检查和扣减：不需要 version，也不需要重试。没有行被修改即为售罄；若本次运行根本没有这一行，则为未初始化库存。',
      guarantee: '不会超卖：InnoDB 在 UPDATE 加的行锁下，针对最新已提交的行计算 stock >= n，所以两笔订单不可能都拿到最后一件，库存和订单一起提交。并发订单之间不会冲突；它们只在 UPDATE、INSERT 和提交期间为这一行排队。',
      pitfall: '同一件商品的所有订单仍要在一行上为 UPDATE + INSERT + 提交串行，这要几次往返，所以吞吐远低于 lua-decrement，且期间占着一个连接池连接。业务在扣库存之前执行，所以订单即使随后发现已售罄，业务耗时也已经花掉了。持有该行却卡住的事务会让其他人等待；锁等待超时或死锁会被回滚并返回 lock_timeout。',
      reproduce: '在同一件商品上用多个连接分别运行它和 db-optimistic：db-conditional 卖完所有库存且冲突重试为 0，而 db-optimistic 不断重试（见对应测试）。',
      symptom: '超卖保持为 0，“版本冲突重试”保持为 0，而 db-optimistic 的这一项不断上升；对比视图中它的吞吐柱远高于 db-optimistic 和 db-pessimistic，低于 lua-decrement。',
      steps: [
        '业务耗时（在事务之前，不持有任何锁）',
        'BEGIN; UPDATE … SET stock = stock − n WHERE … AND stock >= n',
        '若 0 行：SELECT stock：有这一行即为售罄，没有这一行即为未初始化库存（什么都没改）',
        'INSERT 订单；COMMIT',
        '锁等待超时或死锁：ROLLBACK，lock timeout',
      ],
      choice: {
        runsOn: '仅需 MySQL/MariaDB',
        complexity: '最低：一条 UPDATE … WHERE stock >= n',
        reliability: '不会超卖：检查和写入是同一条语句',
        underFault: {
          crash: '语句之外不持有任何东西：事务回滚。',
          pause: '语句之间不持有任何东西：停顿只会拖慢它自己这笔订单。',
          'store-cut': '订单随连接一起失败；什么都没写入。',
          failover: '与数据库一样安全：库存和订单要么一起提交，要么都不提交。',
        },
      },
    },
  },
});
