/*
 * no-lock (no-lock.strategy.ts; readCheckWrite in redis/redis-stock.ts): GET the stock, check, the business
 * time, SET stock − 1, record the order. Nothing keeps two orders apart.
 *
 * Labels → code: readCheckWrite (lab.pml) = readCheckWrite, its fault points stock-read, stock-written and
 * order-recorded as there.
 * Bounds: 2 orders, 1 unit (the runner's -DORDERS, -DSTOCK). Expected: a unit sold twice, with no fault.
 * Cannot express: the business time's length (every interleaving is explored, so none is needed to overlap
 * two orders), the order's INSERT in MySQL and its give-back when the INSERT fails.
 */
#include "../../../../../tools/model-check/lab.pml"

active [ORDERS] proctype Order() {
  byte read;
  readCheckWrite(read);
crashed: skip
}
