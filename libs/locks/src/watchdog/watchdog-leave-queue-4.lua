--[[
  A process whose callers have all stopped waiting gives up its place in the queue (see
  watchdog-acquire-3.lua). If it was first and the lock is free, the release is announced again, to
  the process now first: that one was not named by the last announcement, and would otherwise sleep
  until its own timer.

  KEYS[1] lock key
  KEYS[2] channel the release is announced on
  KEYS[3] queue: zset process id -> when it took its place
  KEYS[4] queue's places kept: hash process id -> Redis time in ms until which its place is kept
  ARGV[1] process id

  Returns 1 if the process had a place, 0 if not.
]]
--- @include "includes/nextInLine"

local wasFirst = redis.call("ZRANK", KEYS[3], ARGV[1]) == 0
local had = redis.call("ZREM", KEYS[3], ARGV[1])
redis.call("HDEL", KEYS[4], ARGV[1])
if wasFirst and redis.call("EXISTS", KEYS[1]) == 0 then
  announceFree(KEYS[2], KEYS[3], KEYS[4])
end
return had
