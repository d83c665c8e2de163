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
if redis.call("HEXISTS", KEYS[1], ARGV[2]) == 0 then
  return -1
end
if redis.call("HINCRBY", KEYS[1], ARGV[2], -1) > 0 then
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  return 0
end
redis.call("DEL", KEYS[1])
redis.call("PUBLISH", KEYS[2], "released")
return 1
