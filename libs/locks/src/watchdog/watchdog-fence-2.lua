--[[
  Numbers a watchdog grant: the next fencing token, issued only while the caller still owns the lock.
  Checking ownership in the same script as the INCR is what keeps tokens in grant order: a holder
  whose lease ran out before it asked gets no token, so no token is ever issued to a holder after a
  newer holder's.

  KEYS[1] lock key (the watchdog's owner hash)
  KEYS[2] fencing counter of that lock
  ARGV[1] owner id

  Returns the new token (1, 2, 3, … per lock key), or nil when the caller no longer owns the lock.
]]
if redis.call("HEXISTS", KEYS[1], ARGV[1]) == 0 then
  return nil
end
return redis.call("INCR", KEYS[2])
