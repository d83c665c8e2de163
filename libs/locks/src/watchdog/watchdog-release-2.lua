--[[
  Leaves a reentrant lock once. The last leave deletes it and publishes on the lock's channel, so
  waiters wake at once instead of polling.

  KEYS[1] lock key
  KEYS[2] channel the release is announced on
  ARGV[1] lease in ms (restarted while the owner still holds it)
  ARGV[2] owner id

  Returns -1 if the caller does not hold the lock (its lease ran out), 0 if it still holds it
  (entered more often than left), 1 if the lock is now free.
]]
--- @include "includes/leaveOnce"

local left = leaveOnce(KEYS[1], ARGV[2], ARGV[1])
if left == 1 then
  redis.call("DEL", KEYS[1])
  redis.call("PUBLISH", KEYS[2], "released")
end
return left
