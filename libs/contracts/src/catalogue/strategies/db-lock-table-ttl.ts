import { defineStrategy } from '../strategy-entry';

export const dbLockTableTtl = defineStrategy({
  name: 'db-lock-table-ttl',
  kind: 'lock',
  store: 'mysql',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  needs: [],
  benchLock: 'db-lock-table-ttl',
  texts: {
    en: {
      title: 'Lock table row with expiry',
      description: "Takes the run's row in a MySQL lock table with INSERT … ON DUPLICATE KEY UPDATE that writes owner = <token> and expires_at = now + TTL only when the row is free or its expires_at has passed by the database's clock, then reads the owner back to learn whether it won (the affected-row count cannot tell). Spins with jittered backoff while the row is taken; lets go with UPDATE … SET owner = NULL WHERE name = ? AND owner = <token>. Under it, the product row's stock is read with a plain SELECT and written back as the value read minus n, with the order INSERT, in one transaction.",
      guarantee: "Mutual exclusion while every holder finishes within the TTL; a dead holder's row frees itself once its expires_at has passed. Expiry is judged by the database's clock alone, so the instances' clocks do not matter, and a release never frees another holder's row.",
      pitfall: 'Nothing extends the lease. When the business time exceeds the TTL the row expires under its holder: the next order takes it over and reads the same stock while the first is still inside, both write the stock they read (a lost update), and it oversells. The first holder learns it only at its release, which finds the row owned by someone else.',
      reproduce: 'Business delay > lock TTL (e.g. TTL 100 ms, delay 250 ms): the lock timeline shows overlapping bars (see its test).',
      symptom: 'With a business delay above the TTL, bars get a dashed outline (lease expired under the holder) and turn red where a second holder took the row while the first was inside; the oversold counter follows above 0.',
      steps: [
        'INSERT … ON DUPLICATE KEY UPDATE owner, expires_at only if free or expired; SELECT whether the row is ours (retry with backoff until the wait times out)',
        'SELECT stock (no FOR UPDATE)',
        'if stock < n: sold out',
        'business delay',
        'BEGIN; UPDATE products SET stock = <stock read − n>; INSERT the order; COMMIT',
        'UPDATE locks SET owner = NULL WHERE name = ? AND owner = <token>',
      ],
      choice: {
        runsOn: 'MySQL/MariaDB only (a locks table with expires_at)',
        complexity: 'low: conditional UPDATEs judged by the database clock',
        reliability: 'exclusive only while every holder finishes within its fixed TTL',
        underFault: {
          crash: "The dead holder's row expires at its expires_at and the next order takes it over.",
          pause: 'A holder paused past the TTL loses the row without knowing; the next order takes it and both write: oversold.',
          'store-cut': 'A holder cut off past the TTL loses the row; its write when the cut heals overwrites the stock: oversold.',
          failover: 'As safe as the database: a MySQL failover that loses committed rows loses the lock row with them.',
        },
      },
    },
    'zh-CN': {
      title: '带过期的锁表行',
      description: '在 MySQL 锁表中用 INSERT … ON DUPLICATE KEY UPDATE 占住本次运行对应的行，只有当该行空闲、或按数据库时钟其 expires_at 已过时，才写入 owner = <token> 和 expires_at = now + TTL；随后把 owner 读回来，确认自己是否抢到（受影响行数无法说明这一点）。行被占用时带随机抖动退避自旋；放锁时执行 UPDATE … SET owner = NULL WHERE name = ? AND owner = <token>。在锁的保护下，用普通 SELECT 读出商品行的库存，再在同一个事务中把读到的值减 n 写回，并 INSERT 订单。',
      guarantee: '只要每个持有者都在 TTL 内完成就能互斥；死掉的持有者的行在 expires_at 过后自动释放。过期只由数据库的时钟判断，所以各实例的时钟无关紧要；释放也绝不会放掉别人持有的行。',
      pitfall: '没有任何东西为租约续期。业务耗时超过 TTL 时，这一行在持有者手里过期：下一笔订单接管它，在第一笔还在临界区内时读到同样的库存，两者都写回自己读到的库存（更新丢失），导致超卖。第一个持有者要到释放时才发现这一行已归别人所有。',
      reproduce: '业务耗时 > 锁 TTL（例如 TTL 100 ms、业务耗时 250 ms）：锁时间线上出现重叠的色条（见对应测试）。',
      symptom: '业务耗时超过 TTL 时，色条出现虚线边框（租约在持有者手里过期），在第一个持有者还在临界区内、第二个持有者已拿到这一行的地方变红；超卖计数器随之大于 0。',
      steps: [
        'INSERT … ON DUPLICATE KEY UPDATE owner、expires_at，仅当空闲或已过期时；SELECT 确认这一行是否归我们（带退避重试，直到等待超时）',
        'SELECT stock（不加 FOR UPDATE）',
        '若 stock < n：售罄',
        '业务耗时',
        'BEGIN; UPDATE products SET stock = <读到的 stock − n>; INSERT 订单; COMMIT',
        'UPDATE locks SET owner = NULL WHERE name = ? AND owner = <token>',
      ],
      choice: {
        runsOn: '仅需 MySQL/MariaDB（一张带 expires_at 的 locks 表）',
        complexity: '低：按数据库时钟判断的条件 UPDATE',
        reliability: '只有每个持有者都在固定 TTL 内完成时才互斥',
        underFault: {
          crash: '死掉的持有者的行在其 expires_at 过期，下一笔订单接管它。',
          pause: '停顿超过 TTL 的持有者在不知情的情况下失去这一行；下一笔订单拿到它，两者都写入：超卖。',
          'store-cut': '断连超过 TTL 的持有者会失去这一行；连接恢复后它的写入会覆盖库存：超卖。',
          failover: '与数据库一样安全：丢失已提交行的 MySQL 主从切换，也会连带丢失锁行。',
        },
      },
    },
  },
});
