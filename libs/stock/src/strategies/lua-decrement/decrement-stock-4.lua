--[[
  Checks and takes stock in one atomic step: Redis runs a script with nothing interleaved, so the
  check cannot go stale before the decrement, and no lock is needed.

  The take is recorded under the request id in the same step, and a request that took already is
  answered what it was answered then: ioredis sends a command again when its connection died before
  the reply, and a decrement the server had already run must not run twice.

  KEYS[1] stock key
  KEYS[2] the run's stock moves (hash: request id -> its moves, "t<units>:<stock left>" per take, "g<units>" per give-back)
  KEYS[3] the run's order stream (orderWrite 'stream')
  KEYS[4] the streamed order's idempotency key claim (see append-order)
  ARGV[1] units to take (a positive integer)
  ARGV[2] request id
  ARGV[3] the order to append with the take (JSON), or "" to append none
  ARGV[4] seconds to keep the claim, or "" to claim nothing

  Returns the stock left after taking, -1 if there is not enough stock (nothing taken),
  -2 if the key does not exist (the product was never seeded or Redis lost it), or an order is given and
  the order stream does not exist (nothing taken), "claimed" if another request holds the idempotency
  key (nothing taken).
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
local stock = redis.call("GET", KEYS[1])
if not stock or streamGone(KEYS[3], ARGV[3]) then
  return -2
end
local units = tonumber(ARGV[1])
if tonumber(stock) < units then
  return -1
end
local left = redis.call("DECRBY", KEYS[1], units)
noteMove(KEYS[2], ARGV[2], false, "t" .. ARGV[1] .. ":" .. left)
appendOrder(KEYS[3], ARGV[3], KEYS[4], ARGV[4], ARGV[2])
return left
