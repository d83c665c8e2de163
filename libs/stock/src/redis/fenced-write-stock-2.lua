--[[
  Writes a stock key for a holder with a fencing token: refused when a higher token has reached the
  stock (read or written it), so a holder that lost its lock without knowing writes nothing.
  An equal token is accepted: the holder's own read registered it, and a write sent again after a
  lost reply writes the same value.

  KEYS[1] stock key
  KEYS[2] the highest fencing token the stock has seen
  ARGV[1] new stock value
  ARGV[2] the holder's fencing token

  Returns 1 when written, 0 when refused (nothing changes).
]]
local highest = tonumber(redis.call("GET", KEYS[2]) or "0")
if tonumber(ARGV[2]) < highest then
  return 0
end
redis.call("SET", KEYS[2], ARGV[2])
redis.call("SET", KEYS[1], ARGV[1])
return 1
