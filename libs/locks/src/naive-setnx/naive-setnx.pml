/*
 * naive-setnx (naive-setnx.lock.ts) around the Redis stock: `SET key 1 NX PX lease` to take (spinLock
 * retries it), plain `DEL key` to let go, whoever's key it is.
 *
 * Labels → code: setNxPxUntilHeld (lab.pml) = tryAcquire's `redis.set(key, '1', 'PX', lease, 'NX')` in
 * spinLock; at(lock_acquired) = LockGuard's `faults.at('lock-acquired')`; readCheckWrite (lab.pml) = the
 * section, with stock-read, stock-written, order-recorded; del (lab.pml) = release's `redis.del(key)`.
 * Faults: a pause past the lease at stock-written (the mis-deletion preset): A's lease runs out after its
 * write, B takes the lock, A's DEL removes B's key and C enters beside B: both write from the same read.
 * A crash at lock-acquired: the key's TTL frees the lock for the others (no deadlock).
 * Bounds: 3 orders, 2 units for the mis-deletion (the third order is the one the late DEL lets in).
 * Cannot express: the lease's length and the retries' backoff, the lock wait that ends in lock_timeout.
 */
#include "../../../../tools/model-check/lab.pml"

active [ORDERS] proctype Order() {
  byte read;
  bool refused;
  setNxPxUntilHeld(refused);
  at(lock_acquired);
  readCheckWrite(read);
  del();
crashed: skip
}
