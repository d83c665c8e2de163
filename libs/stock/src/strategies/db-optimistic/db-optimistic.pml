/*
 * db-optimistic (db-optimistic.strategy.ts): optimistic concurrency on the MySQL product row. SELECT stock
 * and version (read-stock-and-version.sql), the business time (stock-read), then in one transaction
 * UPDATE … SET stock = stock − 1, version = version + 1 WHERE version = <read> AND stock >= 1
 * (deduct-if-version-matches.sql): 0 rows means another order won, and the order reads again, a bounded
 * number of times (optimisticMaxAttempts), then gives up with 'conflict'.
 *
 * Labels → code: SELECT = the READ query; at(stock_read) = `faults.at('stock-read')`; UPDATE_if_version = the
 * DEDUCT query and its affected rows, one atomic step as the row's UPDATE is; at(stock_written),
 * at(order_recorded) as there (the INSERT commits with the UPDATE). No lock: lab.pml's lock key is unused.
 * Faults: none needed to race (every interleaving is explored); a pause at stock-read changes nothing (no
 * lease to outlive): nothing sold twice, no deadlock.
 * Bounds: 3 orders, 1 unit, MAX_ATTEMPTS rounds each (the lab's default is 25).
 * Does not check: the retry storm. Under contention most rounds fail their version check and go round
 * again, and an order may end 'conflict' with stock left: a liveness and throughput cost, not a safety
 * one, which this safety check leaves out. Nor the backoff's jitter, nor MySQL's isolation levels (the
 * conditional UPDATE is what makes it safe under any of them).
 */
#define MAX_ATTEMPTS 2
#include "../../../../../tools/model-check/lab.pml"

byte version;

active [ORDERS] proctype Order() {
  byte read;
  byte seen;
  byte attempt;
  do
  :: attempt == MAX_ATTEMPTS -> printf("MSG %c stock conflict %d gives_up\n", letter(me), attempt); break
  :: attempt < MAX_ATTEMPTS ->
    attempt++;
    atomic { read = stock; seen = version; printf("MSG %c stock SELECT %d -\n", letter(me), read) };
    if
    :: read == 0 -> printf("MSG %c stock sold_out - -\n", letter(me)); break
    :: else ->
      at(stock_read);
      if
      :: atomic { version == seen && stock >= 1 -> stock--; version++; printf("MSG %c stock UPDATE_if_version %d -\n", letter(me), stock); sells(read) };
        at(stock_written);
        at(order_recorded);
        break
      :: atomic { else -> printf("MSG %c stock UPDATE_if_version 0_rows retries\n", letter(me)) }
      fi
    fi
  od;
crashed: skip
}
