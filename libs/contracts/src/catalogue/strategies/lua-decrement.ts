import { defineStrategy } from '../strategy-entry';

export const luaDecrement = defineStrategy({
  name: 'lua-decrement',
  kind: 'atomic',
  store: 'redis',
  settings: ['businessDelayMs'],
  lease: 'none',
  safe: true,
  needs: [],
  texts: {
    en: {
      title: 'Atomic Lua decrement',
      description: 'Checks and decrements the stock inside one Lua script, which Redis runs with nothing interleaved, then records the order; if the order cannot be written the units are given back.',
      guarantee: 'Never oversells: the check and the decrement are one atomic step on one Redis. The fastest strategy.',
      pitfall: 'Only as durable as Redis: stock lives in memory, and a failover to a replica that missed the last writes (asynchronous replication) can hand out units again. A crash between the decrement and the order insert leaves units taken without an order (reconciliation counts them as lost).',
      reproduce: 'Not by load. The dashboard shows 0 oversold and the highest throughput.',
      symptom: 'Oversold stays 0, the lock timeline is empty (one atomic script, no lock) and its throughput bar is the closest to the no-op ceiling in the compare view.',
      steps: [
        'EVALSHA decrement-stock: if stock ≥ n then DECRBY n, noting the request id (sent again after a lost reply, it answers the same and takes nothing)',
        'if it answered -1: sold out',
        'business delay (outside any lock)',
        'INSERT the order (EVALSHA give-back: INCRBY n back once, if that fails)',
      ],
      choice: {
        runsOn: 'one Redis',
        complexity: 'low: one Lua script',
        reliability: 'never oversells on one Redis: check and decrement in one atomic step',
        underFault: {
          crash: 'Nothing is held: a dead order leaves nothing behind (at most a unit taken and not recorded).',
          pause: 'Nothing is held: a pause delays only its own order.',
          'store-cut': 'The order fails; nothing is held.',
          failover: 'Decrements not yet replicated are lost with the master: the promoted replica has more stock than was sold, and it oversells by them.',
        },
      },
    },
    'zh-CN': {
      title: 'Lua 原子扣减',
      description: '在一个 Lua 脚本里检查并扣减库存（Redis 执行脚本时不会穿插其他命令），然后记录订单；若订单写不进去，就把库存还回去。',
      guarantee: '不会超卖：检查和扣减是单个 Redis 上的一个原子步骤。最快的策略。',
      pitfall: '可靠性取决于 Redis 的持久化：库存在内存里，切换到一个漏掉了最近几次写入的副本（异步复制）后，可能会把库存再卖一遍。在扣减和插入订单之间崩溃，会留下被扣掉却没有订单的库存（对账将其计为丢失）。',
      reproduce: '靠负载复现不了。仪表盘显示超卖为 0、吞吐最高。',
      symptom: '超卖保持为 0，锁时间线为空（一个原子脚本，没有锁），对比视图中它的吞吐柱最接近 no-op 吞吐上限。',
      steps: [
        'EVALSHA decrement-stock：若 stock ≥ n 则 DECRBY n，并记下请求 id（应答丢失后重发时，返回相同结果且不再扣减）',
        '若返回 -1：售罄',
        '业务耗时（不在任何锁内）',
        'INSERT 订单（失败则 EVALSHA give-back：INCRBY n 加回一次）',
      ],
      choice: {
        runsOn: '一个 Redis',
        complexity: '低：一个 Lua 脚本',
        reliability: '在单个 Redis 上不会超卖：检查与扣减是一个原子步骤',
        underFault: {
          crash: '什么都不持有：死掉的订单不会留下任何东西（最多有一件库存被扣却没记录）。',
          pause: '什么都不持有：停顿只会拖慢它自己这笔订单。',
          'store-cut': '订单失败；什么都不持有。',
          failover: '尚未复制的扣减会随主节点一起丢失：被提升的副本上的库存比实际卖出后剩下的多，多出来的部分会被超卖。',
        },
      },
    },
  },
});
