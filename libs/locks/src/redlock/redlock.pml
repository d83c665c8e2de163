/*
 * redlock (redlock.lock.ts, RedLock as redis.io describes it) around the Redis stock: `SET key <token> NX
 * PX ttl` on each of five independent nodes; had with a majority (3) of OKs, else the compare-and-delete
 * (redlock-release-1.lua) where it may have set, and try again; let go with the compare-and-delete on every
 * node. With DELAYED_RESTART 1 (redlock-delayed-restart.pml) a restarted node does not vote for a lease.
 *
 * Labels → code: SET_NX_PX on node<i> = `attempt`'s `node.set(key, token, 'PX', ttl, 'NX')`; the quorum
 * check = `last.granted >= quorum`; EVAL_redlock_release = `releaseOn` (on the nodes that said OK after a
 * failed attempt, on all five to let go); at(lock_acquired), readCheckWrite (lab.pml) = LockGuard and the
 * section. A node's vote = the `voters` option (redlock-delayed-restart.lock.ts: a node up for less than a
 * lease is not asked).
 * Faults: node-restart at lock-acquired (the redlock-node-restart preset, Kleppmann's sequence): at the
 * reset two nodes hold a stranger's grant, so the first holder wins exactly the other three; at its point
 * the stranger's grants end and the first of the holder's nodes restarts without its data. B then wins a
 * majority beside A and both write from the same read. Under DELAYED_RESTART the restarted node sits out,
 * B wins only 2 of 5 and waits: nothing sold twice. A failover at lock-acquired (the master-failover
 * preset, where RedLock has no master to lose): one node restarts without its data, one the holder can
 * lose and keep a majority (one of its own when it holds four or five, another when it holds three):
 * B wins two nodes at most, nothing sold twice. A clock jump at lock-acquired (the redlock-clock-jump
 * preset, the articles' problem three): set up as node-restart, but at its point the first of the holder's
 * nodes keeps running and its clock steps past the lease, so it expires the holder's grant: B wins a
 * majority beside A, as after a restart, and delayed restarts change nothing (no node restarted).
 * Bounds: 2 orders, 1 unit, 5 nodes.
 * Cannot express: time — the validity (ttl − elapsed − drift) is always positive here, a lease never runs
 * out under a running holder, and a restarted node sits out the rest of the run (shorter than a lease);
 * the five SETs, sent at once, are sent one after another in node order (each its own step, so the other
 * order's commands interleave between them); the backoff (a failed waiter sleeps until a retry could win).
 */
#ifndef DELAYED_RESTART
#define DELAYED_RESTART 0
#endif
#define NODES 5
#define QUORUM 3
/* The token a client that died part-way through its acquire left on two nodes. */
#define STRANGER 9
#include "../../../../tools/model-check/lab.pml"

byte node[NODES];
bool sitsOut[NODES];
bool reset;

/* Nodes a retry could win: free and voting. */
#define free(i) (node[i] == 0 && !sitsOut[i])
#define winnable (free(0) + free(1) + free(2) + free(3) + free(4) >= QUORUM)

/* The compare-and-delete on every node whose key is this order's. */
inline releaseAll(i) {
  i = 0;
  do
  :: i < NODES ->
    atomic {
      if
      :: node[i] == me + 1 -> node[i] = 0; printf("MSG %c node%d EVAL_redlock_release 1 -\n", letter(me), i + 1)
      :: else -> skip
      fi
    };
    i++
  :: else -> break
  od
}

active [ORDERS] proctype Order() {
  byte read;
  byte i;
  byte granted;
  reset;
  do
  :: granted = 0;
     i = 0;
     do
     :: i < NODES ->
       atomic {
         if
         :: sitsOut[i] -> skip
         :: !sitsOut[i] && node[i] == 0 -> node[i] = me + 1; granted++; printf("MSG %c node%d SET_NX_PX OK -\n", letter(me), i + 1)
         :: !sitsOut[i] && node[i] != 0 -> printf("MSG %c node%d SET_NX_PX nil -\n", letter(me), i + 1)
         fi
       };
       i++
     :: else -> break
     od;
     if
     :: granted >= QUORUM -> printf("MSG %c lock quorum %d -\n", letter(me), granted); break
     :: else ->
       printf("MSG %c lock quorum %d waits\n", letter(me), granted);
       releaseAll(i);
       winnable
     fi
  od;
  if
  :: atomic { faultLeft && (FAULT == node_restart || FAULT == failover || FAULT == clock_jump) ->
       faultLeft = false;
       printf("MSG %c fault %e - lock_acquired\n", letter(me), FAULT);
       if
       :: FAULT == node_restart || FAULT == clock_jump ->
         node[0] = 0;
         node[1] = 0;
         printf("MSG %c node1 stranger_grant_ends - -\n", letter(me));
         printf("MSG %c node2 stranger_grant_ends - -\n", letter(me))
       :: else -> skip
       fi;
       /* The node that restarts: the first of the holder's, but for a failover one it can lose and keep a majority. */
       i = 0;
       do
       :: (node[i] == me + 1) != (FAULT == failover && granted == QUORUM) -> break
       :: else -> i++
       od;
       node[i] = 0;
       sitsOut[i] = DELAYED_RESTART && FAULT != clock_jump;
       if
       :: FAULT == clock_jump -> printf("MSG %c node%d clock_jumps - grant_expires\n", letter(me), i + 1)
       :: FAULT != clock_jump && DELAYED_RESTART -> printf("MSG %c node%d restarts_empty - sits_out_a_lease\n", letter(me), i + 1)
       :: FAULT != clock_jump && !DELAYED_RESTART -> printf("MSG %c node%d restarts_empty - -\n", letter(me), i + 1)
       fi
     }
  :: else -> skip
  fi;
  at(lock_acquired);
  readCheckWrite(read);
  releaseAll(i);
crashed: skip
}

/* The run's reset: under node-restart and clock-jump, a stranger's grant on two nodes. */
active proctype Reset() {
  atomic {
    if
    :: FAULT == node_restart || FAULT == clock_jump -> node[0] = STRANGER; node[1] = STRANGER
    :: else -> skip
    fi;
    reset = true
  }
}
