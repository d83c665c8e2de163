--[[
  Leaves a reentrant lock once and, if that was the last hold, gives it straight to the next owner
  waiting in the same process, instead of freeing it: one command where a release and the next
  owner's acquisition take two, and no other process can slip in between (the caller bounds how
  many times in a row it does this, so other processes' waiters still get their turn).

  KEYS[1] lock key
  ARGV[1] lease in ms (restarted while the owner still holds it)
  ARGV[2] owner id leaving
  ARGV[3] next owner id
  ARGV[4] next owner's lease in ms

  Returns -1 if the caller does not hold the lock (its lease ran out; nothing is passed), 0 if it
  still holds it (entered more often than left; nothing is passed), 1 if the next owner now holds it.
]]
--- @include "includes/leaveOnce"

local left = leaveOnce(KEYS[1], ARGV[2], ARGV[1])
if left == 1 then
  redis.call("HDEL", KEYS[1], ARGV[2])
  redis.call("HINCRBY", KEYS[1], ARGV[3], 1)
  redis.call("PEXPIRE", KEYS[1], ARGV[4])
end
return left
