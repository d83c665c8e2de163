--[[
  Checks and takes stock in one atomic step: Redis runs a script with nothing interleaved, so the
  check cannot go stale before the decrement, and no lock is needed.

  KEYS[1] stock key
  ARGV[1] units to take (a positive integer)

  Returns the stock left after taking, -1 if there is not enough stock (nothing taken),
  -2 if the key does not exist (the product was never seeded or Redis lost it).
]]
local stock = redis.call("GET", KEYS[1])
if not stock then
  return -2
end
local units = tonumber(ARGV[1])
if tonumber(stock) < units then
  return -1
end
return redis.call("DECRBY", KEYS[1], units)
