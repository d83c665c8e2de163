--[[
  Puts back the units a request took, once: the give-back is recorded under the request id in the
  same step, so the same give-back sent again (ioredis re-sends a command whose connection died
  before the reply) adds nothing.

  KEYS[1] stock key
  KEYS[2] the run's stock moves (hash: request id -> what the request did)
  ARGV[1] units to put back (a positive integer)
  ARGV[2] request id

  Returns 1 if the units went back now, 0 if this request had given them back already.
]]
if redis.call("HGET", KEYS[2], ARGV[2]) == "given-back" then
  return 0
end
redis.call("INCRBY", KEYS[1], ARGV[1])
redis.call("HSET", KEYS[2], ARGV[2], "given-back")
return 1
