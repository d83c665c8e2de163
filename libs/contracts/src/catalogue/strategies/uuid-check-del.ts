import { defineStrategy } from '../strategy-entry';

export const uuidCheckDel = defineStrategy({
  name: 'uuid-check-del',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  needs: [],
  texts: {
    en: {
      title: 'Owner token, GET-check-DEL release',
      description: 'Writes a unique owner token into the lock (SET NX PX) and releases it in two commands: GET the lock, compare the value with its token in the application, and DEL the lock if it matched. The owner check uuid-lua does in one Lua script, done the way the articles warn against.',
      guarantee: 'A holder whose lease ran out before its release never deletes the lock. Mutual exclusion while every holder finishes within the TTL, release included.',
      pitfall: "The check and the delete are two commands. If the lease runs out between the GET and the DEL (a GC pause, a slow network) and a second order takes the lock meanwhile, the DEL deletes the second order's lock; a third order gets in while the second is still inside, and both sell the same stock. The release still reports success. Nothing extends the lease either, so uuid-lua's double grant applies too.",
      reproduce: 'A pause between the GET and the DEL longer than the rest of the lease: a fault hook at release-checked-before-del (see its test). Under plain load the gap is one round trip wide and rarely hit; business delay > lock TTL shows the lease pitfall it shares with uuid-lua.',
      symptom: "Under load it looks like uuid-lua: with a business delay above the TTL, dashed red overlapping bars in the lock timeline and the oversold counter above 0. Its own gap is one round trip wide and the dashboard injects no pauses, so the DEL of a successor's lock shows in its test: the second and third holders overlap although neither lease ran out, and the first holder's bar is not marked expired (its GET said the lock was still its own).",
      steps: [
        'SET lock <token> NX PX ttl (retry with backoff)',
        'GET stock',
        'if stock < n: sold out',
        'business delay',
        'SET stock = stock − n',
        'INSERT the order',
        'GET lock; if it is not <token>: done (lost it)',
        'DEL lock (whoever holds it by now)',
      ],
    },
    'zh-CN': {
      title: '持有者令牌，GET-比较-DEL 释放',
      description: '把唯一的持有者令牌写进锁里（SET NX PX），释放时分两条命令：GET 锁，在应用里把值和自己的令牌比较，匹配则 DEL 锁。也就是把 uuid-lua 在一个 Lua 脚本里完成的持有者检查，换成文章明确警告过的做法。',
      guarantee: '租约在释放前已过期的持有者，绝不会删掉锁。只要每个持有者（含释放）都在 TTL 内完成，就能互斥。',
      pitfall: '检查和删除是两条命令。如果租约在 GET 和 DEL 之间过期（GC 停顿、网络变慢），而第二笔订单恰好拿到了锁，这次 DEL 删掉的就是第二笔订单的锁；第三笔订单在第二笔还在临界区内时进入，两者卖掉同一批库存。释放仍然报告成功。同样也没有任何东西为租约续期，所以 uuid-lua 的重复授予问题也存在。',
      reproduce: '在 GET 和 DEL 之间停顿，时长超过租约剩余时间：在 release-checked-before-del 处挂一个故障钩子（见对应测试）。普通负载下这个窗口只有一次往返那么宽，很少踩中；业务耗时 > 锁 TTL 则能展示它与 uuid-lua 共有的租约陷阱。',
      symptom: '负载下表现与 uuid-lua 一样：业务耗时超过 TTL 时，锁时间线上出现虚线边框的红色重叠色条，超卖计数器大于 0。它特有的窗口只有一次往返宽，而仪表盘不会注入停顿，所以“DEL 掉后继者的锁”要在它的测试里才能看到：第二和第三个持有者重叠，尽管两者的租约都没过期；而第一个持有者的色条并未标记为过期（它的 GET 显示锁当时仍是自己的）。',
      steps: [
        'SET lock <token> NX PX ttl（带退避重试）',
        'GET stock',
        '若 stock < n：售罄',
        '业务耗时',
        'SET stock = stock − n',
        'INSERT 订单',
        'GET lock；若不是 <token>：结束（锁已丢失）',
        'DEL lock（不管此刻是谁持有）',
      ],
    },
  },
});
