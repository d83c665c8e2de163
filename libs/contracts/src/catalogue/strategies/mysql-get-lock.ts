import { defineStrategy } from '../strategy-entry';

export const mysqlGetLock = defineStrategy({
  name: 'mysql-get-lock',
  kind: 'lock',
  store: 'mysql',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: true,
  needs: [],
  texts: {
    en: {
      title: 'MySQL named lock (GET_LOCK)',
      description: "Takes MySQL's own named lock with SELECT GET_LOCK(<the run's lock name>, <wait in seconds>) on a connection of the order's own, from a pool the lock keeps apart from the stock's (a waiter sits inside GET_LOCK for its whole wait and is woken by the release), and lets go with SELECT RELEASE_LOCK(<name>) on the same connection, which goes back to the pool only once RELEASE_LOCK said 1. The server keeps the lock in memory for that session: no table, no row, no expiry; the lock TTL setting is ignored. Under it, the product row's stock is read with a plain SELECT and written back as the value read minus n, with the order INSERT, in one transaction.",
      guarantee: 'Mutual exclusion while the holder\'s session lives, however long the business time. The server lets go of the lock when the session ends, normally or not: a holder that crashes leaves no stale lock behind (unlike db-lock-table), and waiters are woken by the release instead of polling.',
      pitfall: "The lock belongs to the connection, not to the order. If the holder's session dies while it works (a KILL, the server's wait_timeout on a section longer than it, a proxy cutting an idle connection), the server releases the lock under a holder that keeps working: the next order is granted it and reads the same stock, both write what they read, and it oversells. The holder is not told, and there is no fencing token to refuse its write; its release only says false. And a connection handed back to a pool still holding (a release skipped) keeps the lock after its order is done, while the next user of that connection is granted it at once: GET_LOCK is reentrant within a session.",
      reproduce: 'Pause an order at stock-read and end its lock session from another connection (SELECT IS_USED_LOCK(<lock name>), then KILL CONNECTION <that id>), or break the lock with POST /api/products/:id/break-locks, which does just that: a second order sells the same unit (see its test).',
      symptom: 'On a healthy run the lock bars never overlap, and a holder that dies blocks nobody: the next bar starts as soon as its process is gone. Ending a working holder\'s session shows as two overlapping bars, the first outlined as lost (its release found the lock gone), and a red oversold counter.',
      steps: [
        "take a connection from the lock's own pool; SELECT GET_LOCK(name, wait) (blocks until granted or the wait runs out)",
        'SELECT stock (no FOR UPDATE)',
        'if stock < n: sold out',
        'business delay',
        'BEGIN; UPDATE products SET stock = <stock read − n>; INSERT the order; COMMIT',
        'SELECT RELEASE_LOCK(name) on the same connection; back to the pool only if it said 1, else close the connection',
      ],
      choice: {
        runsOn: "MySQL/MariaDB only (no table: the server's own lock)",
        complexity: 'low: two functions, but each holding needs a connection of its own, kept out of the pool until released',
        reliability: "exclusive while the holder's session lives; a dead holder frees it at once, a dead session frees it under a live holder",
        underFault: {
          crash: "The server ends the dead holder's session and frees the lock: the next order is granted it at once; nothing is sold twice.",
          pause: "Nothing expires while the session lives: a paused holder keeps the lock and the others wait (and time out if the pause is long). A pause past the server's wait_timeout ends the idle session and frees the lock under it.",
          'store-cut': 'Cut off from MySQL, the holder can neither write nor release. If the server sees the connection close, it frees the lock and the next order takes it; should the cut holder\'s write get through once the cut heals, it writes the stock it read: oversold. If the server does not notice, the lock stays held until it does.',
          failover: "The lock lives in the primary's memory and is not replicated: a failover forgets every lock, and the new primary grants names that old holders still work under.",
        },
      },
    },
    'zh-CN': {
      title: 'MySQL 命名锁（GET_LOCK）',
      description: '在订单独占的一条连接上用 SELECT GET_LOCK(<本次运行的锁名>, <以秒计的等待时间>) 获取 MySQL 自带的命名锁。这条连接取自锁自己的连接池，与读写库存的连接池分开（等待者在 GET_LOCK 里阻塞整个等待时间，由释放唤醒）；放锁时在同一条连接上执行 SELECT RELEASE_LOCK(<name>)，只有它返回 1，连接才归还连接池。锁由服务器保存在该会话的内存里：没有表、没有行、没有过期时间；锁 TTL 设置被忽略。在锁的保护下，用普通 SELECT 读出商品行的库存，再在同一个事务中把读到的值减 n 写回，并 INSERT 订单。',
      guarantee: '只要持有者的会话还活着，无论业务耗时多长都能互斥。会话结束时（无论正常还是异常），服务器都会释放锁：崩溃的持有者不会留下僵尸锁（与 db-lock-table 不同），等待者由释放唤醒，而不是轮询。',
      pitfall: '锁属于连接，而不属于订单。如果持有者的会话在它工作时死掉（被 KILL、临界区比服务器的 wait_timeout 还长、代理切断了空闲连接），服务器会在持有者仍在工作时释放锁：下一笔订单拿到锁并读到同样的库存，两者都写回各自读到的值，导致超卖。持有者不会得到通知，也没有栅栏令牌来拒绝它的写入；它的释放只会返回 false。另外，一条仍持有锁的连接若被归还连接池（漏掉了释放），订单结束后锁依然存在，而这条连接的下一个使用者会立刻拿到锁：GET_LOCK 在同一会话内可重入。',
      reproduce: '让一笔订单停在 stock-read，再从另一条连接结束它的锁会话（SELECT IS_USED_LOCK(<锁名>)，然后 KILL CONNECTION <该 id>），或调用 POST /api/products/:id/break-locks（它做的正是这件事）：第二笔订单卖出同一件库存（见对应测试）。',
      symptom: '正常运行时锁色条从不重叠，死掉的持有者也不会堵住任何人：它的进程一消失，下一根色条就开始。结束一个仍在工作的持有者的会话，会出现两根重叠的色条，第一根带虚线边框（释放时发现锁已不在），超卖计数器变红。',
      steps: [
        '从锁自己的连接池取一条连接；SELECT GET_LOCK(name, wait)（阻塞，直到拿到锁或等锁超时）',
        'SELECT stock（不加 FOR UPDATE）',
        '若 stock < n：售罄',
        '业务耗时',
        'BEGIN; UPDATE products SET stock = <读到的 stock − n>; INSERT 订单; COMMIT',
        '在同一条连接上 SELECT RELEASE_LOCK(name)；只有返回 1 才归还连接池，否则关闭这条连接',
      ],
      choice: {
        runsOn: '仅需 MySQL/MariaDB（无需建表：服务器自带的锁）',
        complexity: '低：两个函数，但每个持有者都要独占一条连接，释放前不得归还连接池',
        reliability: '持有者的会话活着就互斥；持有者死掉，锁立刻释放；会话死掉，锁会在仍活着的持有者手里被释放',
        underFault: {
          crash: '服务器结束死掉的持有者的会话并释放锁：下一笔订单立刻拿到它；不会重复卖出。',
          pause: '会话活着就不会过期：停顿的持有者一直持有锁，其他人等待（停顿太长就会超时）。停顿超过服务器的 wait_timeout 时，空闲的会话被结束，锁在它手里被释放。',
          'store-cut': '与 MySQL 断开后，持有者既无法写入也无法释放。若服务器察觉到连接关闭，就会释放锁，下一笔订单随即拿到它；断开恢复后，被切断的持有者的写入若能送达，会写回它读到的库存：超卖。若服务器没有察觉，锁会一直被占着，直到它察觉为止。',
          failover: '锁只存在于主库的内存中，不会被复制：主从切换会丢失所有锁，新主库会把旧持有者仍在使用的锁名再授予别人。',
        },
      },
    },
  },
});
