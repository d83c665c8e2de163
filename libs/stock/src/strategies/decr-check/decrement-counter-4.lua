--[[
  DECRBY, once per request: no check, the counter may go below 0 (the caller checks afterwards and
  puts the units back). The decrement is recorded under the request id in the same step, so the
  same command sent again (ioredis re-sends a command whose connection died before the reply)
  answers what it answered the first time instead of taking the units twice.

  KEYS[1] stock key
  KEYS[2] the run's stock moves (hash: request id -> its moves, "t<units>:<stock left>" per take, "g<units>" per give-back)
  KEYS[3] the run's order stream (orderWrite 'stream')
  KEYS[4] the streamed order's idempotency key claim (see append-order)
  ARGV[1] units to take (a positive integer)
  ARGV[2] request id
  ARGV[3] the order to append with a take that kept the counter at 0 or above (JSON), or "" to append
          none; an overdraft appends nothing (nor claims), as its caller gives the units back and answers sold out
  ARGV[4] seconds to keep the claim, or "" to claim nothing

  A counter that does not exist is not created by the DECRBY (at -n, or later given back into with
  phantom units): the existence check and the decrement are one step.

  Returns the counter after the decrement, or nil when the stock key does not exist (the product was
  never seeded or Redis lost it), or an order is given and the order stream does not exist; nothing changes.
  "claimed" if another request holds the idempotency key (nothing changes).
]]
--- @include "../../redis/includes/append-order"
--- @include "../../redis/includes/stock-moves"
local took = leftAfterTake(KEYS[2], ARGV[2])
if took then
  return took
end
if claimedByAnother(KEYS[4], ARGV[4], ARGV[2]) then
  return CLAIMED
end
if redis.call("EXISTS", KEYS[1]) == 0 or streamGone(KEYS[3], ARGV[3]) then
  return false
end
local left = redis.call("DECRBY", KEYS[1], ARGV[1])
noteMove(KEYS[2], ARGV[2], false, "t" .. ARGV[1] .. ":" .. left)
if left >= 0 then
  appendOrder(KEYS[3], ARGV[3], KEYS[4], ARGV[4], ARGV[2])
end
return left
