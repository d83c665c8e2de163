--[[
  Leaves a reentrant lock once. The last leave deletes it and announces it on the lock's channel to the
  process first in the queue (see includes/nextInLine.lua), so its waiting head tries at once instead
  of polling, and the heads of the processes behind it stay asleep.

  KEYS[1] lock key
  KEYS[2] channel the release is announced on
  KEYS[3] queue: zset process id -> when it took its place (watchdog-acquire-3.lua)
  KEYS[4] queue's places kept: hash process id -> Redis time in ms until which its place is kept
  ARGV[1] lease in ms (restarted while the owner still holds it)
  ARGV[2] owner id

  Returns -1 if the caller does not hold the lock (its lease ran out), 0 if it still holds it
  (entered more often than left), 1 if the lock is now free.
]]
--- @include "includes/leaveOnce"
--- @include "includes/nextInLine"

local left = leaveOnce(KEYS[1], ARGV[2], ARGV[1])
if left == 1 then
  redis.call("DEL", KEYS[1])
  announceFree(KEYS[2], KEYS[3], KEYS[4])
end
return left
