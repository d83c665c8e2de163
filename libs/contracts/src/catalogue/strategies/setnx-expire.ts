import { defineStrategy } from '../strategy-entry';

export const setnxExpire = defineStrategy({
  name: 'setnx-expire',
  kind: 'lock',
  store: 'redis',
  settings: ['lockTtlMs', 'businessDelayMs'],
  lease: 'fixed',
  safe: false,
  needs: [],
  texts: {
    en: {
      title: 'SETNX, then PEXPIRE',
      description: 'Takes the lock with SETNX lock <token>, then gives it a TTL with a second command, PEXPIRE lock ttl; spins with jittered backoff while it is taken, and releases with a plain DEL.',
      guarantee: 'Mutual exclusion while every holder finishes within the lock TTL; a holder that dies after its PEXPIRE loses the lock when the TTL runs out.',
      pitfall: "Taking the lock is two commands. A holder that dies between the SETNX and the PEXPIRE leaves a lock with no TTL, held forever: every later order times out (lock_timeout) and nothing sells until someone deletes the key (the break-locks admin action). SET lock <token> NX PX ttl (naive-setnx) does both in one command, so a dead holder's lock is gone within one TTL. It also has naive-setnx's lease pitfall: business time > TTL lets a second holder in, and the plain DEL of the first deletes the second's lock. Oversells.",
      reproduce: 'Kill the holder between the two commands (a crash at lock-set-before-expire, see its test): the lock key has no TTL (PTTL −1) and every later order answers 503 lock_timeout. Business delay > lock TTL shows the lease pitfall.',
      symptom: 'After a holder dies between SETNX and PEXPIRE, the lock timeline shows no more bars, lock_timeout climbs to every order, and sold and remaining stay flat. With a business delay above the TTL instead: dashed, red overlapping bars and the oversold counter above 0, as naive-setnx.',
      steps: [
        'SETNX lock <token> (retry with backoff until the wait times out)',
        'PEXPIRE lock ttl (a second command: a holder dying before it leaves a lock that never expires)',
        'GET stock',
        'if stock < n: sold out',
        'business delay',
        'SET stock = stock − n',
        'INSERT the order',
        'DEL lock (whoever holds it)',
      ],
    },
    'zh-CN': {
      title: '先 SETNX，再 PEXPIRE',
      description: '用 SETNX lock <token> 加锁，再用第二条命令 PEXPIRE lock ttl 设置 TTL；锁被占用时带随机抖动退避自旋重试，释放时直接 DEL。',
      guarantee: '只要每个持有者都在锁 TTL 内完成，就能互斥；持有者若在 PEXPIRE 之后死掉，TTL 到期时锁会自动释放。',
      pitfall: '加锁分成了两条命令。持有者若死在 SETNX 和 PEXPIRE 之间，留下的锁没有 TTL，会被永远占着：之后每笔订单都超时（lock_timeout），什么都卖不出，直到有人删掉这个 key（管理操作 break-locks）。SET lock <token> NX PX ttl（naive-setnx）一条命令同时完成两件事，因此死掉的持有者留下的锁最多一个 TTL 内就会消失。它同样有 naive-setnx 的租约陷阱：业务耗时 > TTL 会放第二个持有者进来，而第一个持有者直接 DEL 会删掉第二个的锁。会超卖。',
      reproduce: '在两条命令之间杀掉持有者（在 lock-set-before-expire 处崩溃，见对应测试）：锁 key 没有 TTL（PTTL −1），之后每笔订单都返回 503 lock_timeout。业务耗时 > 锁 TTL 则能展示租约陷阱。',
      symptom: '持有者死在 SETNX 和 PEXPIRE 之间后，锁时间线上不再出现色条，lock_timeout 增长到覆盖所有订单，已售和剩余都停滞不动。若改为让业务耗时超过 TTL：出现虚线边框、红色重叠的色条，超卖计数器大于 0，与 naive-setnx 相同。',
      steps: [
        'SETNX lock <token>（带退避重试，直到等待超时）',
        'PEXPIRE lock ttl（第二条命令：持有者若死在它之前，留下的锁永不过期）',
        'GET stock',
        '若 stock < n：售罄',
        '业务耗时',
        'SET stock = stock − n',
        'INSERT 订单',
        'DEL lock（不管当前是谁持有）',
      ],
    },
  },
});
