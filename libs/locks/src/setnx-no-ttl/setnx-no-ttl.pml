/*
 * setnx-no-ttl (setnx-no-ttl.lock.ts) around the Redis stock: `SETNX key 1` to take (spinLock retries it),
 * plain `DEL key` to let go, and no expiry at all.
 *
 * Labels → code: SETNX = tryAcquire's `redis.setnx(key, '1')`; at(lock_acquired) = LockGuard's point;
 * readCheckWrite (lab.pml) = the section; del (lab.pml) = release's `redis.del(key)`. The key has no TTL
 * (lockTtl stays false), so the store's expiry never touches it.
 * Faults: a crash at lock-acquired (the dead-holder-no-ttl preset): the key stays for ever and every later
 * order waits for it: spin's invalid end state, the deadlock. With no fault: nothing sold twice, no deadlock.
 * Bounds: 2 orders, 1 unit.
 * Cannot express: the lock wait after which the lab's orders end lock_timeout (here they wait for ever),
 * the operator's "break stale lock".
 */
#include "../../../../tools/model-check/lab.pml"

active [ORDERS] proctype Order() {
  byte read;
  bool refused;
  do
  :: atomic { lockKey == 0 -> lockKey = me + 1; printf("MSG %c lock SETNX 1 -\n", letter(me)); break }
  :: atomic { lockKey != 0 && !refused -> refused = true; printf("MSG %c lock SETNX 0 waits\n", letter(me)) }
  od;
  at(lock_acquired);
  readCheckWrite(read);
  del();
crashed: skip
}
