/*
 * uuid-lua (uuid-lua.lock.ts) around the Redis stock: `SET key <token> NX PX lease` to take, the
 * compare-and-delete release-lock-1.lua to let go. Nothing extends the lease.
 *
 * Labels → code: setNxPxUntilHeld (lab.pml) = tryAcquire's `redis.set(key, token, 'PX', lease, 'NX')`;
 * at(lock_acquired) = LockGuard's point; readCheckWrite (lab.pml) = the section (stock-read, stock-written,
 * order-recorded); EVAL_release_lock = release-lock-1.lua, one atomic step (GET = token → DEL).
 * Faults: a pause past the lease at stock-written (the mis-deletion preset): the late release deletes
 * nothing, so no third order gets in and nothing is sold twice. A pause past the lease at stock-read (the
 * business outlives the lease): B is granted the lock while A is between its read and its write, and both
 * write from the same read. A failover at lock-acquired (the master-failover preset): the promoted replica
 * never saw A's key and grants the lock to B.
 * Bounds: 3 orders and 2 units under the mis-deletion (as naive-setnx), 2 orders and 1 unit otherwise.
 * Cannot express: the lease's length (a business time longer than the TTL is the pause), the backoff.
 */
#include "../../../../tools/model-check/lab.pml"

active [ORDERS] proctype Order() {
  byte read;
  bool refused;
  setNxPxUntilHeld(refused);
  at(lock_acquired);
  readCheckWrite(read);
  atomic {
    if
    :: lockKey == me + 1 -> lockKey = 0; lockTtl = false; printf("MSG %c lock EVAL_release_lock 1 -\n", letter(me))
    :: else -> printf("MSG %c lock EVAL_release_lock 0 not_its_own\n", letter(me))
    fi
  };
crashed: skip
}
