--[[
  orderWrite 'stream': appends the order of the take this script just made to the run's order stream,
  in the same atomic step, so no unit is taken without its order and no order is appended without its
  units. The order is the JSON the caller encoded (request id, product, run, quantity, strategy,
  idempotency key); the entry's id carries Redis's time of the take. An empty order (sync, queued)
  appends nothing: the caller writes it.

  streamGone is asked before the take: a run's stream is created with the writers' group at its reset,
  and goes (a later reset, or the writers, once it is empty and its run is over) only as a whole. A take
  whose stream is gone is refused as if the stock were gone: XADD would create an unlisted stream with
  no group, whose order no writer would ever read.
]]
local function streamGone(stream, order)
  return order ~= "" and redis.call("EXISTS", stream) == 0
end

local function appendOrder(stream, order)
  if order ~= "" then
    redis.call("XADD", stream, "*", "o", order)
  end
end
