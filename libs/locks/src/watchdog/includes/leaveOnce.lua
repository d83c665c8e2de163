--[[
  Function to leave a reentrant lock (the watchdog's owner hash) once. While the owner still holds it
  (entered more often than left), its lease restarts.

  Returns -1 if the owner does not hold the lock (its lease ran out), 0 if it still holds it, 1 if
  that was its last hold: the owner's field is still there, for the caller to free or pass the lock.
]]
local function leaveOnce(lockKey, owner, leaseMs)
  if redis.call("HEXISTS", lockKey, owner) == 0 then
    return -1
  end
  if redis.call("HINCRBY", lockKey, owner, -1) > 0 then
    redis.call("PEXPIRE", lockKey, leaseMs)
    return 0
  end
  return 1
end
