--[[
  Checks and takes stock in one atomic step: Redis runs a script with nothing interleaved, so the
  check cannot go stale before the decrement, and no lock is needed.

  The take is recorded under the request id in the same step, and a request that took already is
  answered what it was answered then: ioredis sends a command again when its connection died before
  the reply, and a decrement the server had already run must not run twice.

  KEYS and ARGV: a one-script take's (includes/atomic-take.lua); ARGV[1], the units, a positive integer.

  Returns the stock left after taking, -1 if there is not enough stock (nothing taken),
  -2 if the key does not exist (the product was never seeded or Redis lost it), or an order is given and
  the order stream does not exist (nothing taken), "claimed" if another request holds the idempotency
  key (nothing taken).
]]
--- @include "../../redis/includes/atomic-take"
local answered = answeredAlready()
if answered then
  return answered
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
noteTake(left, true)
return left
