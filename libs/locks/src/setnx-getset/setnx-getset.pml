/*
 * setnx-getset (setnx-getset.lock.ts) around the Redis stock: the key's value is its holder's expiry time by
 * the holder's own clock (now + lease); the key itself never expires. Take: `SETNX key <now + lease>` wins;
 * otherwise `GET key`: a stamp not behind this order's clock means held; a stamp behind it, `GETSET key
 * <now + lease>`, won only if the old value handed back is the stamp read. Let go: `GETDEL key`.
 *
 * Labels → code: SETNX = `redis.setnx(key, stamp)`; GET = `redis.get(key)` and the check `Number(read) >=
 * clock()`; at(stamp_read_before_getset) = `hooks.at('stamp-read-before-getset')`; GETSET = `redis.getset(key,
 * takeover)`; GETDEL = release's `redis.getdel(key)`; at(lock_acquired), readCheckWrite (lab.pml) as for
 * every lock around the Redis stock. lockKey is the model's ghost record of the last order that won.
 * Time: `now` counts leases (LEASE = 1); it only moves while the lock's winner is stalled or dead (the
 * Clock process), as every other lease ends in the lab's: a holder finishes within its lease unless a
 * fault stops it. clockOf(o) is order o's clock: under the clock-offset fault the last order's clock runs
 * LEASE + 1 ahead (the fault names one instance), so it reads a live holder's stamp as expired.
 * Faults: clock-offset (the getset-clock-skew preset): the order whose clock runs ahead GETSETs the live
 * holder's lock and both write from the same read.
 * Bounds: 2 orders, 1 unit, now ≤ MAX_NOW.
 * Cannot express: stamps in ms (two holders stamping the same ms), the lease's length against the business
 * time, the backoff; the SETNX that fails and the GET after it are one step (a key deleted between them
 * only makes the lab's attempt fail and retry).
 */
#define LEASE 1
#define MAX_NOW 3
#define leaseOver(o) (!stalled[o] || now > stampOf[o])
#include "../../../../tools/model-check/lab.pml"

byte now;
/* The key: whether it exists and the stamp it holds. */
bool keySet;
byte stamp;
/* The stamp each order wrote when it won, for leaseOver. */
byte stampOf[ORDERS];

#define clockOf(o) (now + (FAULT == clock_offset && o == ORDERS - 1 -> LEASE + 1 : 0))

active [ORDERS] proctype Order() {
  byte read;
  byte seen;
  byte old;
  bool refused;
  if
  :: FAULT == clock_offset && me == ORDERS - 1 -> printf("MSG %c clock runs_ahead %d clock_offset\n", letter(me), LEASE + 1)
  :: else -> skip
  fi;
  do
  :: atomic { !keySet -> keySet = true; stamp = clockOf(me) + LEASE; stampOf[me] = stamp; lockKey = me + 1; printf("MSG %c lock SETNX %d -\n", letter(me), stamp); break }
  :: atomic {
       keySet && !refused -> seen = stamp;
       if
       :: seen >= clockOf(me) -> refused = true; printf("MSG %c lock GET %d held_waits\n", letter(me), seen)
       :: else -> printf("MSG %c lock GET %d expired_by_its_clock\n", letter(me), seen)
       fi
     };
     if
     :: refused ->
       /* Sleeps until a retry could win: the key gone, or its stamp behind this order's clock. */
       atomic { !keySet || stamp < clockOf(me) -> refused = false }
     :: else ->
       at(stamp_read_before_getset);
       atomic {
         old = stamp;
         stamp = clockOf(me) + LEASE;
         keySet = true;
         if
         :: old == seen -> stampOf[me] = stamp; lockKey = me + 1; printf("MSG %c lock GETSET %d took_over\n", letter(me), old)
         :: else -> printf("MSG %c lock GETSET %d lost_the_race\n", letter(me), old)
         fi
       };
       if
       :: old == seen -> break
       :: else -> skip
       fi
     fi
  od;
  at(lock_acquired);
  readCheckWrite(read);
  atomic {
    if
    :: keySet && stamp == stampOf[me] -> printf("MSG %c lock GETDEL %d -\n", letter(me), stamp)
    :: keySet && stamp != stampOf[me] -> printf("MSG %c lock GETDEL %d not_its_own\n", letter(me), stamp)
    :: !keySet -> printf("MSG %c lock GETDEL - -\n", letter(me))
    fi;
    keySet = false;
    lockKey = 0
  };
crashed: skip
}

/* Time passes while the lock's winner is stalled or dead. */
active proctype Clock() {
end:
  do
  :: atomic { now < MAX_NOW && lockKey != 0 && (dead[lockKey - 1] || stalled[lockKey - 1]) -> now++; printf("MSG %c clock tick %d -\n", letter(lockKey - 1), now) }
  od
}
