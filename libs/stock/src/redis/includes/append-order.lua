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

  A streamed order's row, and so the unique index on its idempotency key, comes after the answer, so
  the key is claimed here, with the take: claimKey names the request that holds it, for claimSeconds
  ("" when the order carries no key, or is not streamed: nothing is claimed, and claimKey is then any
  key of the take's slot). claimedByAnother is asked before the take; the claim is set only with an
  appended order, so a take that found no stock leaves no claim behind.
]]
local CLAIMED = "claimed"

local function streamGone(stream, order)
  return order ~= "" and redis.call("EXISTS", stream) == 0
end

local function claimedByAnother(claimKey, claimSeconds, requestId)
  if claimSeconds == "" then
    return false
  end
  local holder = redis.call("GET", claimKey)
  return holder ~= false and holder ~= requestId
end

local function appendOrder(stream, order, claimKey, claimSeconds, requestId)
  if order ~= "" then
    if claimSeconds ~= "" then
      redis.call("SET", claimKey, requestId, "EX", claimSeconds)
    end
    redis.call("XADD", stream, "*", "o", order)
  end
end
