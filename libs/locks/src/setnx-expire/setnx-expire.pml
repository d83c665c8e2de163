/*
 * setnx-expire (setnx-expire.lock.ts) around the Redis stock: `SETNX key <token>`, then `PEXPIRE key lease`
 * as a second command, to take; plain `DEL key` to let go.
 *
 * Labels → code: SETNX = tryAcquire's `redis.setnx(key, token)`; at(lock_set_before_expire) =
 * `hooks.at('lock-set-before-expire')`; PEXPIRE = `redis.pexpire(key, lease)` (on whatever key is there);
 * at(lock_acquired) = LockGuard's point; readCheckWrite (lab.pml) = the section; del (lab.pml) = release.
 * Faults: a crash at lock-set-before-expire (the crash-between-setnx-and-expire preset): the key is left
 * with no TTL and no holder, and every later order waits for it for ever (spin's invalid end state).
 * Bounds: 2 orders, 1 unit.
 * Cannot express: the lock wait after which the lab's orders end lock_timeout (here they wait for ever).
 */
#include "../../../../tools/model-check/lab.pml"

active [ORDERS] proctype Order() {
  byte read;
  bool refused;
  do
  :: atomic { lockKey == 0 -> lockKey = me + 1; lockTtl = false; printf("MSG %c lock SETNX 1 -\n", letter(me)); break }
  :: atomic { lockKey != 0 && !refused -> refused = true; printf("MSG %c lock SETNX 0 waits\n", letter(me)) }
  od;
  at(lock_set_before_expire);
  atomic { lockTtl = (lockKey != 0); printf("MSG %c lock PEXPIRE %d -\n", letter(me), lockTtl) };
  at(lock_acquired);
  readCheckWrite(read);
  del();
crashed: skip
}
