--[[
  DECRBY, once per request: no check, the counter may go below 0 (the caller checks afterwards and
  puts the units back). The decrement is recorded under the request id in the same step, so the
  same command sent again (ioredis re-sends a command whose connection died before the reply)
  answers what it answered the first time instead of taking the units twice.

  KEYS and ARGV: a one-script take's (includes/atomic-take.lua). The order (ARGV[3]) is appended, and
  the key claimed, only with a take that kept the counter at 0 or above: an overdraft's caller gives the
  units back and answers sold out.

  A counter that does not exist is not created by the DECRBY (at -n, or later given back into with
  phantom units): the existence check and the decrement are one step.

  Returns the counter after the decrement, or nil when the stock key does not exist (the product was
  never seeded or Redis lost it), or an order is given and the order stream does not exist; nothing changes.
  "claimed" if another request holds the idempotency key (nothing changes).
]]
--- @include "../../redis/includes/atomic-take"
local answered = answeredAlready()
if answered then
  return answered
end
if redis.call("EXISTS", KEYS[1]) == 0 or streamGone(KEYS[3], ARGV[3]) then
  return false
end
local left = redis.call("DECRBY", KEYS[1], ARGV[1])
noteTake(left, left >= 0)
return left
