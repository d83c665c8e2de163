--[[
  The watchdog's renewal: restarts the lease, but only while the caller still owns the lock.
  Renewing without the ownership check would resurrect a lock someone else now holds.

  KEYS[1] lock key
  ARGV[1] lease in ms
  ARGV[2] owner id

  Returns 1 if renewed, 0 if the caller no longer owns the lock.
]]
if redis.call("HEXISTS", KEYS[1], ARGV[2]) == 1 then
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  return 1
end
return 0
