--[[
  Puts back the units a request took, once: the give-back is recorded under the request id in the
  same step, so the same give-back sent again (ioredis re-sends a command whose connection died
  before the reply) adds nothing.

  KEYS[1] stock key
  KEYS[2] the run's stock moves (hash: request id -> its moves, "t<units>:<stock left>" per take, "g<units>" per give-back)
  ARGV[1] units to put back (a positive integer)
  ARGV[2] request id

  Only into a stock key that exists: one that is gone (Redis restarted without persistence, or was
  flushed, or another order found it missing) is not created again by an INCRBY with phantom units.

  Returns 1 if the units went back now, 0 if this request had given them back already, -2 if the stock
  key does not exist (nothing changes).
]]
--- @include "includes/stock-moves"
if redis.call("EXISTS", KEYS[1]) == 0 then
  return -2
end
local moves = redis.call("HGET", KEYS[2], ARGV[2])
if moves and string.find(moves, "g", 1, true) then
  return 0
end
redis.call("INCRBY", KEYS[1], ARGV[1])
noteMove(KEYS[2], ARGV[2], moves, "g" .. ARGV[1])
return 1
