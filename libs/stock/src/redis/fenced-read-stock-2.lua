--[[
  Reads a stock key for a holder with a fencing token, and registers the token with the stock: from
  now on, writes with a lower token are refused. Registering at the read, not only at the write, is
  what makes a read-check-write safe: a stale holder that wrote after a newer holder read would
  otherwise land first, and the newer holder would then write over it from the same stock (a lost
  update). A token lower than the highest seen is refused here already.

  KEYS[1] stock key
  KEYS[2] the highest fencing token the stock has seen
  ARGV[1] the holder's fencing token

  Returns {"fenced"} when the token is lower than the highest seen (nothing changes), otherwise
  {"ok", stock} ({"ok"} when the stock is not seeded).
]]
local highest = tonumber(redis.call("GET", KEYS[2]) or "0")
if tonumber(ARGV[1]) < highest then
  return {"fenced"}
end
redis.call("SET", KEYS[2], ARGV[1])
return {"ok", redis.call("GET", KEYS[1])}
