import { defineStrategy } from '../strategy-entry';

export const dbLockTable = defineStrategy({
  name: 'db-lock-table',
  kind: 'lock',
  store: 'mysql',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: false,
  needs: [],
  benchLock: 'db-lock-table',
  texts: {
    en: {
      title: 'Lock table row (owner, no expiry)',
      description: "Takes the run's row in a MySQL lock table with UPDATE locks SET owner = <token> WHERE name = ? AND owner IS NULL (a name with no row yet is inserted already owned, INSERT IGNORE), spins with jittered backoff while someone else owns it, and lets go with UPDATE … SET owner = NULL WHERE name = ? AND owner = <token>. The row has no expiry: the lock TTL setting is ignored. Under it, the product row's stock is read with a plain SELECT and written back as the value read minus n, with the order INSERT, in one transaction.",
      guarantee: "Mutual exclusion for as long as each holder lives to release it, however long the business time: each conditional UPDATE is atomic in InnoDB and only the owner's own UPDATE frees the row, so nothing expires under a holder and it never oversells on its own.",
      pitfall: 'A holder that dies inside (process killed or crashed, connection lost before its release) leaves the row owned for ever: every later order spins until its lock wait runs out and is refused with lock_timeout, and the stock stops moving, until someone breaks the lock by hand (the break-locks admin action). SETNX with no TTL, in a table. Breaking it is a guess that the holder is dead: if it was only slow, a second order gets the row while the first is still inside, both write the stock they read, and it oversells.',
      reproduce: 'Kill the process that holds the lock (a crash at lock-acquired, see its test): from then on every order answers 503 lock_timeout and the stock stays where it was. POST /api/products/:id/break-locks lets orders sell again.',
      symptom: 'After a holder dies, the lock timeline shows no more bars, lock_timeout climbs to every order, and sold and remaining stay flat: nothing oversells, throughput drops to zero, and no TTL ends it. Breaking the lock of a holder that was only slow shows as overlapping bars and a red oversold counter.',
      steps: [
        'UPDATE locks SET owner = <token> WHERE name = ? AND owner IS NULL; no row yet: INSERT IGNORE it owned (retry with backoff until the wait times out)',
        'SELECT stock (no FOR UPDATE)',
        'if stock < n: sold out',
        'business delay',
        'BEGIN; UPDATE products SET stock = <stock read − n>; INSERT the order; COMMIT',
        'UPDATE locks SET owner = NULL WHERE name = ? AND owner = <token>',
      ],
      choice: {
        runsOn: 'MySQL/MariaDB only (a locks table)',
        complexity: 'low: conditional UPDATEs on a row, no expiry',
        reliability: 'exclusive for as long as each holder lives to release it; a dead holder blocks the lock for ever',
        underFault: {
          crash: 'The dead holder keeps the row: every later order waits until its lock wait runs out (lock_timeout) until someone breaks the lock by hand.',
          pause: 'Nothing expires: a paused holder keeps the lock, the others wait (and time out if the pause is long); nothing is sold twice.',
          'store-cut': 'Cut off from MySQL, the holder cannot write or release; the row stays owned until it comes back.',
          failover: 'As safe as the database: a MySQL failover that loses committed rows loses the lock row with them.',
        },
      },
    },
    'zh-CN': {
      title: '锁表行（记录持有者，无过期）',
      description: '在 MySQL 锁表中用 UPDATE locks SET owner = <token> WHERE name = ? AND owner IS NULL 占住本次运行对应的行（该 name 还没有行时，直接插入一行已被占有的记录，INSERT IGNORE）；有别人占有时带随机抖动退避自旋，放锁时执行 UPDATE … SET owner = NULL WHERE name = ? AND owner = <token>。这一行没有过期时间：锁 TTL 设置被忽略。在锁的保护下，用普通 SELECT 读出商品行的库存，再在同一个事务中把读到的值减 n 写回，并 INSERT 订单。',
      guarantee: '只要每个持有者都活着释放锁，无论业务耗时多长都能互斥：每条条件 UPDATE 在 InnoDB 中都是原子的，只有持有者自己的 UPDATE 才能释放这一行，因此锁不会在持有者手里过期，它自身永不超卖。',
      pitfall: '持有者若在临界区内死掉（进程被杀或崩溃、释放前连接断开），这一行就永远被占着：之后每笔订单都一直自旋到等锁超时，以 lock_timeout 被拒绝，库存不再变化，直到有人手动强制解锁（管理操作 break-locks）。这就是放进表里的无 TTL SETNX。强制解锁等于赌持有者已经死了：如果它只是慢，第二笔订单会在第一笔还在临界区内时拿到这一行，两者都写回自己读到的库存，导致超卖。',
      reproduce: '杀掉持有锁的进程（在 lock-acquired 处崩溃，见对应测试）：此后每笔订单都返回 503 lock_timeout，库存停在原处。POST /api/products/:id/break-locks 可以让订单恢复售卖。',
      symptom: '持有者死后，锁时间线上不再出现色条，lock_timeout 增长到覆盖所有订单，已售和剩余都停滞不动：不会超卖，吞吐降到零，而且没有 TTL 来终结这种状态。若被强制解锁的持有者其实只是慢，会出现重叠的色条和红色的超卖计数器。',
      steps: [
        'UPDATE locks SET owner = <token> WHERE name = ? AND owner IS NULL；还没有行：INSERT IGNORE 一行已被占有的记录（带退避重试，直到等待超时）',
        'SELECT stock（不加 FOR UPDATE）',
        '若 stock < n：售罄',
        '业务耗时',
        'BEGIN; UPDATE products SET stock = <读到的 stock − n>; INSERT 订单; COMMIT',
        'UPDATE locks SET owner = NULL WHERE name = ? AND owner = <token>',
      ],
      choice: {
        runsOn: '仅需 MySQL/MariaDB（一张 locks 表）',
        complexity: '低：对一行做条件 UPDATE，无过期',
        reliability: '只要每个持有者都活着释放锁就互斥；死掉的持有者会永远堵住这把锁',
        underFault: {
          crash: '死掉的持有者一直占着这一行：之后每笔订单都会等锁超时（lock_timeout），直到有人手动强制解锁。',
          pause: '不会过期：停顿的持有者一直持有锁，其他人等待（停顿太长就会超时）；不会重复卖出。',
          'store-cut': '与 MySQL 断开后，持有者既无法写入也无法释放；这一行一直被占着，直到它恢复连接。',
          failover: '与数据库一样安全：丢失已提交行的 MySQL 主从切换，也会连带丢失锁行。',
        },
      },
    },
  },
});
