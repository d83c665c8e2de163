/*
 * watchdog (watchdog-lock.ts, Redisson's RLock by hand) around the Redis stock: watchdog-acquire-3.lua grants
 * a free lock, a renewal every lease/3 keeps it while the holder's process runs, watchdog-release-4.lua
 * leaves it (only the owner's hold: -1 when the lease ran out). A holder that learns its lock is lost
 * (a renewal that failed raises the holding's signal) writes nothing (knownLost, lock_lost). With FENCED 1
 * (watchdog-fenced.pml) every grant is numbered and the stock is fenced.
 *
 * Labels → code: EVAL_watchdog_acquire = `watchdogAcquireV1` (the grant when EXISTS is 0); RENEWED 1 in
 * lab.pml = the renewal timer (`renew`): a running holder's lease never runs out; at(lock_acquired),
 * readCheckWrite (lab.pml) = LockGuard and the section; knownLost = `knownLost(holding)` before the write;
 * EVAL_watchdog_release = `watchdogReleaseV1`. Fenced: EVAL_watchdog_fence = grant-fence.ts's
 * `watchdogFenceV1` (a token only while the caller still owns the lock); EVAL_fenced_read_stock and
 * EVAL_fenced_write_stock = fenced-read-stock-2.lua and fenced-write-stock-5.lua (refuse a token below the
 * highest seen; the read registers it).
 * Faults: a pause past the lease at stock-read (the business outlives the lease): the renewals go on, no
 * double sale. A stop-the-world at stock-read (the gc-pause-past-the-lease preset): the renewals freeze
 * too, the lease runs out, B is granted the lock; A wakes and, unless a renewal has failed first (the
 * model lets either happen first), writes the stock it read before B's write: sold twice — and under
 * FENCED, refused by the stock. A crash at lock-acquired: the lease runs out, no deadlock. A failover at
 * lock-acquired (the master-failover preset): the promoted replica never saw A's key and grants it to B;
 * fenced too, as its counter was lost with the master, B gets A's token again, which the stock accepts.
 * Bounds: 2 orders, 1 unit.
 * Cannot express: the line of orders inside one process and its hand-over (watchdog-pass-1.lua), the fair
 * queue of processes, re-entry, the pub/sub wake-up (a waiter here sleeps until the lock is free; the
 * release's message names the process first in the queue, so only its head wakes: which waiter goes
 * next, never whether two hold), the renewal's timing and the lease's length.
 */
#ifndef FENCED
#define FENCED 0
#endif
#define RENEWED 1
/* The fencing counter lives on the lock's master: a failover loses it with the key. */
#define LOST_WITH_THE_MASTER fence = 0
#define LOCK_LOST_SIGNAL
#include "../../../../tools/model-check/lab.pml"

/* The fencing counter beside the lock, and the highest token the stock has seen. */
byte fence;
byte highest;

/* The holding's signal: raised once a renewal found the lock gone; either may come first after a pause. */
inline knownLost() {
  if
  :: lockKey != me + 1 -> printf("MSG %c lock renewal_fails 0 lock_lost\n", letter(me)); goto sectionEnd
  :: true -> skip
  fi
}

active [ORDERS] proctype Order() {
  byte read;
  byte token;
  bool refused;
  do
  :: atomic { lockKey == 0 -> lockKey = me + 1; lockTtl = true; printf("MSG %c lock EVAL_watchdog_acquire granted -\n", letter(me)); break }
  :: atomic { lockKey != 0 && !refused -> refused = true; printf("MSG %c lock EVAL_watchdog_acquire ttl waits\n", letter(me)) }
  od;
#if FENCED
  atomic {
    if
    :: lockKey == me + 1 -> fence++; token = fence; printf("MSG %c lock EVAL_watchdog_fence %d -\n", letter(me), token)
    :: else -> printf("MSG %c lock EVAL_watchdog_fence nil lock_timeout\n", letter(me)); goto crashed
    fi
  };
#endif
  at(lock_acquired);
#if FENCED
  /* readCheckWrite on the fenced stock. */
  atomic {
    if
    :: token < highest -> printf("MSG %c stock EVAL_fenced_read_stock fenced -\n", letter(me)); goto sectionEnd
    :: else -> highest = token; read = stock; printf("MSG %c stock EVAL_fenced_read_stock %d -\n", letter(me), read)
    fi
  };
  if
  :: read == 0 -> printf("MSG %c stock sold_out - -\n", letter(me))
  :: else ->
    at(stock_read);
    knownLost();
    atomic {
      if
      :: token < highest -> printf("MSG %c stock EVAL_fenced_write_stock 0 fenced\n", letter(me))
      :: else -> highest = token; stock = read - 1; printf("MSG %c stock EVAL_fenced_write_stock %d -\n", letter(me), stock); sells(read)
      fi
    };
    at(stock_written);
    at(order_recorded)
  fi;
#else
  readCheckWrite(read);
#endif
sectionEnd:
  atomic {
    if
    :: lockKey == me + 1 -> lockKey = 0; lockTtl = false; printf("MSG %c lock EVAL_watchdog_release 1 -\n", letter(me))
    :: else -> printf("MSG %c lock EVAL_watchdog_release -1 not_its_own\n", letter(me))
    fi
  };
crashed: skip
}
