import { defineStrategy } from '../strategy-entry';

export const decrCheck = defineStrategy({
  name: 'decr-check',
  kind: 'atomic',
  store: 'redis',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: true,
  needs: [],
  texts: {
    en: {
      title: 'DECRBY, check, INCRBY back',
      description: 'Takes the units first and checks afterwards: DECRBY on the stock counter (atomic on its own), and if the result is below zero the order overdrew it, so INCRBY puts the units back and the answer is sold out. No lock; the check is not in a script (each command is wrapped in one only to note the request id, so a command sent again after a lost reply moves nothing twice).',
      guarantee: 'Never oversells: every DECRBY is atomic, and an order is sold only when its own DECRBY left the counter at 0 or above, so the units sold never exceed the stock.',
      pitfall: 'The overdraft and its repair are two commands. Between them the counter is below the true stock (negative, even), and a concurrent order the real stock could cover is refused sold out. If the process dies between the two, the INCRBY never comes: the counter stays low for good, and the units it owes are neither sold nor available (lost). Like lua-decrement, a crash between the DECRBY and the order insert also loses the units taken.',
      reproduce: 'A pause or a crash at the stock-overdrawn fault point (see its tests). Under load near sellout, orders for several units overdraw the counter and refuse smaller orders it could still cover.',
      symptom: 'Oversold stays 0 and the lock timeline is empty (no lock). Near sellout with orders for several units, sold-out answers while units are left; after an instance dies mid-overdraft the remaining stock reads below 0 for good, stores agree shows NO and reconciliation counts the stranded units as lost.',
      steps: [
        'EVALSHA decrement-counter: DECRBY stock n, once per request id, only if the stock key exists (a missing key is not seeded, or lost)',
        'if the result < 0: EVALSHA give-back (INCRBY stock n back, once), sold out',
        'business delay (outside any lock)',
        'INSERT the order (give-back if that fails)',
      ],
      choice: {
        runsOn: 'one Redis',
        complexity: 'low: DECRBY, check, INCRBY back',
        reliability: 'never oversells: each DECRBY is atomic; a crash between overdraw and give-back leaves the counter low (undersold), never oversold',
        underFault: {
          crash: 'A crash after an overdrawing DECRBY and before its give-back leaves the counter low: units go unsold, none twice.',
          pause: 'Nothing is held: a pause delays only its own order.',
          'store-cut': 'The order fails; a DECRBY that landed before the cut without its order recorded leaves units unsold.',
          failover: 'Decrements not yet replicated are lost with the master: the promoted replica has more stock than was sold, and it oversells by them.',
        },
      },
    },
    'zh-CN': {
      title: 'DECRBY、检查、INCRBY 回补',
      description: '先扣后查：对库存计数器执行 DECRBY（单条命令本身是原子的），若结果小于零说明这笔订单透支了库存，就用 INCRBY 把库存加回去，并返回售罄。不加锁；检查不在脚本里（每条命令各包在一个脚本里，只是为了记录请求 id，这样应答丢失后重发的命令不会扣两次）。',
      guarantee: '不会超卖：每次 DECRBY 都是原子的，而订单只有在它自己的 DECRBY 让计数器保持在 0 或以上时才算售出，所以卖出的件数绝不会超过库存。',
      pitfall: '透支和回补是两条命令。在这两条之间，计数器低于真实库存（甚至是负数），真实库存本可满足的并发订单会被判为售罄。若进程死在两条命令之间，INCRBY 就永远不会执行：计数器从此偏低，欠下的那些库存既没卖出也无法再卖（丢失）。与 lua-decrement 一样，在 DECRBY 和插入订单之间崩溃，也会丢失已扣的库存。',
      reproduce: '在 stock-overdrawn 故障点停顿或崩溃（见对应测试）。负载下接近售罄时，要多件的订单会把计数器透支，拒绝掉它本可满足的小订单。',
      symptom: '超卖保持为 0，锁时间线为空（没有锁）。接近售罄且有多件订单时，明明还有库存却返回售罄；实例在透支与回补之间死掉后，剩余库存从此显示为负数，“存储一致”显示为“否”，对账把滞留的库存计为丢失。',
      steps: [
        'EVALSHA decrement-counter：DECRBY stock n，每个请求 id 只执行一次，且只在库存 key 存在时执行（key 不存在即未初始化库存，或已丢失）',
        '若结果 < 0：EVALSHA give-back（INCRBY stock n 加回，只执行一次），售罄',
        '业务耗时（不在任何锁内）',
        'INSERT 订单（失败则 give-back）',
      ],
      choice: {
        runsOn: '一个 Redis',
        complexity: '低：DECRBY、检查、INCRBY 回补',
        reliability: '不会超卖：每次 DECRBY 都是原子的；在透支与回补之间崩溃会让计数器偏低（少卖），绝不会超卖',
        underFault: {
          crash: '透支的 DECRBY 之后、回补之前崩溃，会让计数器偏低：有库存卖不出去，但没有重复卖出。',
          pause: '什么都不持有：停顿只会拖慢它自己这笔订单。',
          'store-cut': '订单失败；断连前已落地但订单未记录的 DECRBY 会让部分库存卖不出去。',
          failover: '尚未复制的扣减会随主节点一起丢失：被提升的副本上的库存比实际卖出后剩下的多，多出来的部分会被超卖。',
        },
      },
    },
  },
});
