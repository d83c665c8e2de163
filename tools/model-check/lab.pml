/*
 * The lab around every lock model (#included by each): the orders, the stock they sell, the one lock
 * key and the store's expiry of it, the fault the run injects, and the property the lab measures.
 *
 * Orders: ORDERS processes (pids 1 …; the store is pid 0), each buying one unit. `me` is an order's
 * index (0 = A, 1 = B, 2 = C); its token in a lock key is me + 1 (0 = no key).
 * Stock: STOCK units. The property: no unit is sold twice — no two writes of the stock come from the same
 * value read (soldFrom is the ghost record of the reads written from), asserted at every write.
 * Deadlock: an order blocked for ever on a lock is an invalid end state, which spin reports (the lab's
 * lock wait, after which an order gives up with lock_timeout, is left out: a wait that could never end is
 * what the lab shows as every later order timing out).
 * Time: a step takes no time next to a lease. A lease runs out only under a holder that a fault stalls
 * (a pause past the lease, a stop-the-world) or that died: the store's expiry is a process that may
 * delete the key at any moment once its holder is stalled or dead, never under a holder that runs on.
 * Fault: FAULT (an mtype below, e.g. -DFAULT=pause) at FAULT_AT (a fault point, e.g. -DFAULT_AT=stock_read),
 * fired at the first passage of that point, once per run, as the lab's `once`: crash, pause,
 * stop_the_world, failover and clock_jump here (see at), clock_offset and node_restart in the models that have
 * them (and redlock's own clock_jump).
 *
 * Every step prints one line for the trail's sequence diagram, which tools/model-check/trace.ts reads
 * from spin's replay:
 *   MSG <actor> <target> <action> <value or -> <note or ->
 * actor: the order, A B C; target: lock, stock, expiry, clock, fault, node1 …; action: the command, its
 * words joined by '_'; value: the stock read or written, a reply, or the order whose lock it is; note: a
 * fault point or a remark, '-' joined by '_' (stock_read). A sale from a value already sold from is
 * followed by `MSG <actor> stock sold_twice <value read> -`, just before the assertion fails.
 */
#ifndef ORDERS
#define ORDERS 2
#endif
#ifndef STOCK
#define STOCK 1
#endif
#ifndef FAULT
#define FAULT no_fault
#endif
#ifndef FAULT_AT
#define FAULT_AT no_point
#endif
/* What else a lock keeps on the master a failover loses (the watchdog-fenced's counter), as a statement. */
#ifndef LOST_WITH_THE_MASTER
#define LOST_WITH_THE_MASTER skip
#endif
/* Locks whose lease is renewed while the holder's process runs (the watchdog) define RENEWED 1. */
#ifndef RENEWED
#define RENEWED 0
#endif

mtype = { no_fault, crash, pause, stop_the_world, clock_offset, node_restart, failover, clock_jump };
/* The lab's fault points (libs/contracts/src/faults.ts), '-' written '_'. */
mtype = { no_point, lock_acquired, stock_read, stock_written, order_recorded, lock_set_before_expire, release_checked_before_del, stamp_read_before_getset };

#define me (_pid - 1)
/* An order's letter, from its index. */
#define letter(i) ('A' + (i))

byte stock = STOCK;
bool soldFrom[STOCK + 1];
bool faultLeft = true;
bool dead[ORDERS];
/* Stalled past its lease: the store may expire the holder's key (see Store). */
bool stalled[ORDERS];

/* The lock key: its holder's token (0: no key) and whether it has a TTL. */
byte lockKey;
bool lockTtl;

/*
 * Whether the lease of order o cannot run out any further: it is not stalled, or holds no key with a TTL.
 * A lock whose lease is judged otherwise (setnx-getset's stamps) defines its own before the #include.
 */
#ifndef leaseOver
#define leaseOver(o) (!stalled[o] || !(lockKey == o + 1 && lockTtl))
#endif

inline readStock(read) {
  atomic { read = stock; printf("MSG %c stock GET %d -\n", letter(me), read) }
}

/* The ghost record of a sale from the value read: the property, asserted. A second sale says so first. */
inline sells(read) {
  if
  :: soldFrom[read] -> printf("MSG %c stock sold_twice %d -\n", letter(me), read)
  :: else -> skip
  fi;
  assert(!soldFrom[read]);
  soldFrom[read] = true
}

inline writeStock(read) {
  atomic { stock = read - 1; printf("MSG %c stock SET %d -\n", letter(me), stock); sells(read) }
}

/*
 * spinLock's tryAcquire of `SET key <token> NX PX lease` (naive-setnx writes '1' for every holder; the
 * token here is the model's record of who set it), retried until it wins. A waiter refused once sleeps
 * until the key is gone: a retry that would fail again changes nothing, and a waiter that can never win
 * is then blocked, which spin reports as a deadlock.
 */
inline setNxPxUntilHeld(refused) {
  do
  :: atomic { lockKey == 0 -> lockKey = me + 1; lockTtl = true; printf("MSG %c lock SET_NX_PX OK -\n", letter(me)); break }
  :: atomic { lockKey != 0 && !refused -> refused = true; printf("MSG %c lock SET_NX_PX nil waits\n", letter(me)) }
  od
}

/* A plain `DEL key`: deletes whichever holder's key is there. */
inline del() {
  atomic {
    if
    :: lockKey == me + 1 -> printf("MSG %c lock DEL %c -\n", letter(me), letter(me))
    :: lockKey != 0 && lockKey != me + 1 -> printf("MSG %c lock DEL %c not_its_own\n", letter(me), letter(lockKey - 1))
    :: lockKey == 0 -> printf("MSG %c lock DEL - -\n", letter(me))
    fi;
    lockKey = 0;
    lockTtl = false
  }
}

/*
 * The critical section of the locks around the Redis stock (readCheckWrite in libs/stock/src/redis/
 * redis-stock.ts): GET, check, the business time (stock-read), SET stock − 1, record the order. A lock with
 * a lost-lock signal (the watchdog) defines LOCK_LOST_SIGNAL and an inline knownLost(), checked before the write.
 */
inline readCheckWrite(read) {
  readStock(read);
  if
  :: read == 0 -> printf("MSG %c stock sold_out - -\n", letter(me))
  :: else ->
    at(stock_read);
#ifdef LOCK_LOST_SIGNAL
    knownLost();
#endif
    writeStock(read);
    at(stock_written);
    at(order_recorded)
  fi
}

/*
 * A fault point. crash: the order's process dies here (its proctype ends at the label `crashed`).
 * pause, stop_the_world: the order stands still until its lease has run out (a pause *past* the lease);
 * a pause stalls no renewed lease (the watchdog renews it on the event loop), a stop-the-world stalls
 * every lease. failover: the master dies before the lock key reached its replica, which is promoted
 * without it (and without what else the lock kept there). clock_jump: the lock store's clock steps past the
 * lease, and the store expires the holder's key under it, running or not (the counter beside it stays).
 * Other faults are the lock model's own.
 */
inline at(point) {
  if
  :: faultLeft && FAULT_AT == point && FAULT == crash ->
    atomic { faultLeft = false; dead[me] = true; printf("MSG %c fault crash - %e\n", letter(me), point) };
    goto crashed
  :: faultLeft && FAULT_AT == point && (FAULT == pause || FAULT == stop_the_world) ->
    atomic { faultLeft = false; stalled[me] = (FAULT == stop_the_world || !RENEWED); printf("MSG %c fault %e - %e\n", letter(me), FAULT, point) };
    atomic { leaseOver(me) -> stalled[me] = false; printf("MSG %c fault resumes - -\n", letter(me)) }
  :: faultLeft && FAULT_AT == point && FAULT == failover ->
    atomic {
      faultLeft = false;
      printf("MSG %c fault failover - %e\n", letter(me), point);
      printf("MSG %c lock replica_promoted - key_lost\n", letter(me));
      lockKey = 0;
      lockTtl = false;
      LOST_WITH_THE_MASTER
    }
  :: faultLeft && FAULT_AT == point && FAULT == clock_jump ->
    atomic {
      faultLeft = false;
      printf("MSG %c fault clock_jump - %e\n", letter(me), point);
      if
      :: lockKey == me + 1 && lockTtl -> lockKey = 0; lockTtl = false; printf("MSG %c expiry clock_jumped_past_the_lease - -\n", letter(me))
      :: else -> skip
      fi
    }
  :: else -> skip
  fi
}

/* The store's expiry: a dead or stalled holder's key may go at any moment. */
active proctype Store() {
end:
  do
  :: atomic {
       lockKey != 0 && lockTtl && (dead[lockKey - 1] || stalled[lockKey - 1]) ->
       printf("MSG %c expiry lease_ran_out - -\n", letter(lockKey - 1));
       lockKey = 0;
       lockTtl = false
     }
  od
}
