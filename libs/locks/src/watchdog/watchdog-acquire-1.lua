--[[
  Acquires or re-enters a reentrant lock (Redisson's RLock layout): a hash whose single field is
  the owner and whose value counts how many times that owner holds it.

  KEYS[1] lock key
  ARGV[1] lease in ms
  ARGV[2] owner id (instance:request)

  Returns nil when the caller now holds the lock (first time or re-entered; the lease restarts),
  otherwise the lock's remaining time to live in ms, so the caller knows how long to wait at most.
]]
if redis.call("EXISTS", KEYS[1]) == 0 or redis.call("HEXISTS", KEYS[1], ARGV[2]) == 1 then
  redis.call("HINCRBY", KEYS[1], ARGV[2], 1)
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  return nil
end
return redis.call("PTTL", KEYS[1])
