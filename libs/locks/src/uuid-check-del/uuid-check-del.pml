/*
 * uuid-check-del (uuid-check-del.lock.ts) around the Redis stock: `SET key <token> NX PX lease` to take;
 * to let go, `GET key`, compare with the token in the client, and `DEL key` if it matched: two commands.
 *
 * Labels → code: setNxPxUntilHeld (lab.pml) = tryAcquire's SET NX PX; at(lock_acquired) = LockGuard's point;
 * readCheckWrite (lab.pml) = the section; GET = release's `redis.get(key)`; at(release_checked_before_del)
 * = `hooks.at('release-checked-before-del')`; del (lab.pml) = `redis.del(key)`.
 * Faults: a pause past the lease at release-checked-before-del (the non-atomic-release preset): A's GET saw
 * its own token, its lease runs out, B takes the lock, A's DEL removes B's key and C enters beside B.
 * Bounds: 3 orders, 2 units.
 * Cannot express: the lease's length and the backoff; the release's answer (it says true, judged at the GET).
 */
#include "../../../../tools/model-check/lab.pml"

active [ORDERS] proctype Order() {
  byte read;
  bool refused;
  bool own;
  setNxPxUntilHeld(refused);
  at(lock_acquired);
  readCheckWrite(read);
  atomic {
    own = (lockKey == me + 1);
    if
    :: own -> printf("MSG %c lock GET %c -\n", letter(me), letter(me))
    :: !own && lockKey != 0 -> printf("MSG %c lock GET %c -\n", letter(me), letter(lockKey - 1))
    :: !own && lockKey == 0 -> printf("MSG %c lock GET - -\n", letter(me))
    fi
  };
  if
  :: own ->
    at(release_checked_before_del);
    del()
  :: else -> skip
  fi;
crashed: skip
}
