--[[
  RedLock's release, sent to every node: deletes the lock there only if it still holds the caller's
  token. A node where the lock expired and was taken by another client keeps that client's lock; a GET
  then DEL in two commands could delete it in between.

  KEYS[1] lock key
  ARGV[1] the holder's token (the value its SET NX wrote on every node)

  Returns 1 if this node held the caller's lock and now holds none, 0 otherwise.
]]
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1])
end
return 0
