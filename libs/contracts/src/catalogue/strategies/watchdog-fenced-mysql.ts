import { defineStrategy } from '../strategy-entry';

export const watchdogFencedMysql = defineStrategy({
  name: 'watchdog-fenced-mysql',
  kind: 'lock',
  store: 'mysql',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'renewed',
  safe: true,
  needs: [],
  texts: {
    en: {
      title: 'Watchdog lock with fencing tokens (MySQL row)',
      description: "The fenced watchdog (each grant numbered by INCR of the lock's fencing counter, in a script that first checks the caller still owns the lock) around the MySQL product row as a fenced store: the holder claims the row with UPDATE products SET fence = <token>, fence_holder = <holding> WHERE … AND (fence < <token> OR (fence = <token> AND fence_holder = <holding>)), reads the stock, and writes it back in the order's transaction with UPDATE … SET stock = <read − n> under the same condition. No affected row means a higher token, or the same token from another holding, reached the row first: the order is refused as fenced and its transaction writes nothing.",
      guarantee: 'Never oversells, even when the lock double-grants: a holder paused past its lease (stop-the-world GC) wakes with a token lower than the holder that took over, and the row refuses its write (outcome fenced, nothing taken). Otherwise as the watchdog: renewed while the holder lives, freed within one lease after it dies.',
      pitfall: "The lock is no safer than the watchdog: a pause longer than the lease still lets two holders in. Only the row, which checks the token, is protected; any other side effect of the stale holder still happens. A Redis failover loses the counter with the lock and issues a token again: the row, which also records which holding brought its token, lets in only the first of the two holders that carry it (the other is answered fenced), and a token below the row's highest (two or more grants lost) is refused; but both holders still believe they hold the lock, and anything else they do unfenced happens twice.",
      reproduce: "A stop-the-world pause longer than the lease at the lock-acquired or stock-read point (its test blocks the holder's event loop with Atomics.wait): the stale holder is answered fenced and oversold stays 0.",
      symptom: "Under a pause past the lease the lock timeline shows two holders at once (red), yet oversold stays 0 and the outcome counts show fenced for the stale holder's order.",
      steps: [
        "EVAL watchdog-acquire (and the watchdog's line, as for watchdog); renew every lease/3",
        "EVAL watchdog-fence: if the owner still holds the lock, INCR <lock>:fence → this grant's token",
        'UPDATE products SET fence = <token>, fence_holder = <holding> WHERE id, run_id AND (fence < <token> OR (fence = <token> AND fence_holder = <holding>)) (0 rows: fenced)',
        'SELECT stock; check; business delay',
        'BEGIN; UPDATE products SET stock = <read − n>, fence = <token>, fence_holder = <holding> WHERE id, run_id AND (the same condition); 0 rows: ROLLBACK, fenced; else INSERT the order; COMMIT',
        'EVAL watchdog-pass or watchdog-release, as for watchdog',
      ],
      choice: {
        runsOn: 'one Redis for the lock and its token counter, MySQL for the stock row that checks the token',
        complexity: 'high: the watchdog, a token counter, and a row that records the highest token and the holding that brought it',
        reliability: 'never oversells even when the lock double-grants: the row refuses a lower token, and an equal token from another holding',
        underFault: {
          crash: 'As the watchdog: the lease runs out within one TTL.',
          pause: "The paused holder wakes with a token lower than its successor's; the row refuses its write (fenced).",
          'store-cut': 'As the watchdog: lock-lost stops the holder; a write already on the way is refused by its token.',
          failover: 'The lock double-grants (the key and the token counter are lost with the master), but the row lets in only the first of the two holders that carry the same token; the other is answered fenced and nothing is sold twice (master-failover preset). Anything else both holders do outside the row happens twice.',
        },
      },
    },
    'zh-CN': {
      title: '带栅栏令牌的看门狗锁（MySQL 行）',
      description: '带栅栏的看门狗（每次授予都通过 INCR 锁的栅栏计数器编号，所在脚本会先检查调用者仍持有锁），以 MySQL 商品行作为带栅栏检查的存储：持有者用 UPDATE products SET fence = <token>, fence_holder = <holding> WHERE … AND (fence < <token> OR (fence = <token> AND fence_holder = <holding>)) 认领这一行，读出库存，再在订单事务中用同样条件的 UPDATE … SET stock = <read − n> 写回。没有受影响的行，说明已有更大的令牌、或另一次持有带着相同令牌先到达了这一行：订单以 fenced 被拒绝，其事务不写入任何东西。',
      guarantee: '即使锁被重复授予也不会超卖：停顿超过租约的持有者（stop-the-world GC）醒来时，令牌小于接管它的持有者，这一行会拒绝它的写入（结果为 fenced，不扣任何库存）。其余与看门狗相同：持有者活着时续期，死后一个租约内释放。',
      pitfall: '锁并不比看门狗更安全：超过租约的停顿仍会放两个持有者进来。只有检查令牌的这一行受到保护；过期持有者的其他副作用照样发生。Redis 主从切换会把计数器连同锁一起丢失，并重复发出同一个令牌：这一行还记录了带来其令牌的是哪一次持有，因此两个持有相同令牌的持有者中只放行第一个（另一个得到 fenced），小于该行最大值的令牌（丢失了两次或更多授予时）也会被拒绝；但两个持有者仍都以为自己持有锁，它们在栅栏之外做的其他事都会发生两次。',
      reproduce: '在 lock-acquired 或 stock-read 处做一次超过租约的 stop-the-world 停顿（它的测试用 Atomics.wait 阻塞持有者的事件循环）：过期持有者得到 fenced，超卖保持为 0。',
      symptom: '在超过租约的停顿下，锁时间线显示同时有两个持有者（红色），但超卖保持为 0，结果计数中过期持有者的那笔订单记为 fenced。',
      steps: [
        'EVAL watchdog-acquire（以及看门狗的本地队列，同 watchdog）；每 lease/3 续期一次',
        'EVAL watchdog-fence：若持有者仍持有锁，INCR <lock>:fence → 本次授予的令牌',
        'UPDATE products SET fence = <token>, fence_holder = <holding> WHERE id, run_id AND (fence < <token> OR (fence = <token> AND fence_holder = <holding>))（0 行：fenced）',
        'SELECT stock；检查；业务耗时',
        'BEGIN; UPDATE products SET stock = <read − n>, fence = <token>, fence_holder = <holding> WHERE id, run_id AND（同样的条件）；0 行：ROLLBACK，fenced；否则 INSERT 订单；COMMIT',
        'EVAL watchdog-pass 或 watchdog-release，同 watchdog',
      ],
      choice: {
        runsOn: '一个 Redis 存放锁及其令牌计数器，MySQL 存放检查令牌的库存行',
        complexity: '高：看门狗、令牌计数器，以及一行记录最大令牌和带来它的那次持有的数据',
        reliability: '即使锁被重复授予也不会超卖：这一行会拒绝更小的令牌，也会拒绝来自另一次持有的相同令牌',
        underFault: {
          crash: '同看门狗：租约在一个 TTL 内到期。',
          pause: '停顿的持有者醒来时，令牌小于其后继者；这一行拒绝它的写入（fenced）。',
          'store-cut': '同看门狗：lock-lost 让持有者停下；已经发出的写入会因令牌被拒绝。',
          failover: '锁会被重复授予（key 和令牌计数器随主节点一起丢失），但这一行在两个持有相同令牌的持有者中只放行第一个；另一个得到 fenced，不会重复卖出（master-failover 预设）。两个持有者在这一行之外做的其他事都会发生两次。',
        },
      },
    },
  },
});
