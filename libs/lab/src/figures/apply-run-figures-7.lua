--[[
  Applies one batch of an instance's run figures at most once. A batch is re-sent whole when its
  reply did not arrive (a cut connection, a pipeline that failed part-way), although it may have
  been applied; its id, recorded here in the same atomic step, turns the repeat into a no-op, so no
  counter is incremented twice and no lock holding or trace step is listed twice.

  KEYS[1] ids of the batches applied (set)
  KEYS[2] outcome counters (hash)
  KEYS[3] per-second counters (hash)
  KEYS[4] lock holdings (list)
  KEYS[5] batches applied per instance (hash): the worker reads an instance's progress from it
  KEYS[6] moments, epoch ms (hash): a field named min:… keeps the lowest value sent, max:… the highest
  KEYS[7] the orders' traced steps (list)
  ARGV[1] batch id
  ARGV[2] instance id
  ARGV[3] TTL of every key, seconds
  ARGV[4] c: number of outcome counter pairs, ARGV[5] s: number of per-second counter pairs,
  ARGV[6] m: number of moment pairs, ARGV[7] l: number of lock holdings
  ARGV[8 .. 7+2c] outcome counters, field then increment
  ARGV[8+2c .. 7+2c+2s] per-second counters, field then increment
  ARGV[8+2c+2s .. 7+2c+2s+2m] moments, field then value
  ARGV[8+2c+2s+2m .. 7+2c+2s+2m+l] lock holdings, one JSON each
  ARGV[8+2c+2s+2m+l] trace steps, one JSON each, joined by newlines (JSON has none of its own); empty for none

  Returns 1 if the batch was applied now, 0 if it had been already.
]]
if redis.call("SADD", KEYS[1], ARGV[1]) == 0 then
  return 0
end
local counts = tonumber(ARGV[4])
local seconds = tonumber(ARGV[5])
local moments = tonumber(ARGV[6])
local holdings = tonumber(ARGV[7])
local i = 8
for _ = 1, counts do
  redis.call("HINCRBY", KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
for _ = 1, seconds do
  redis.call("HINCRBY", KEYS[3], ARGV[i], ARGV[i + 1])
  i = i + 2
end
for _ = 1, moments do
  local field, value = ARGV[i], tonumber(ARGV[i + 1])
  local kept = tonumber(redis.call("HGET", KEYS[6], field))
  local lowest = string.sub(field, 1, 4) == "min:"
  if kept == nil or (lowest and value < kept) or (not lowest and value > kept) then
    redis.call("HSET", KEYS[6], field, ARGV[i + 1])
  end
  i = i + 2
end
-- In slices: unpack() of a whole large batch would overflow Lua's stack.
local function push(key, last)
  while i <= last do
    local slice = math.min(i + 999, last)
    redis.call("RPUSH", key, unpack(ARGV, i, slice))
    i = slice + 1
  end
end
push(KEYS[4], i + holdings - 1)
local steps, from, slice = ARGV[i], 1, {}
while from <= #steps do
  local to = string.find(steps, "\n", from, true) or #steps + 1
  slice[#slice + 1] = string.sub(steps, from, to - 1)
  from = to + 1
  if #slice == 1000 or from > #steps then
    redis.call("RPUSH", KEYS[7], unpack(slice))
    slice = {}
  end
end
redis.call("HINCRBY", KEYS[5], ARGV[2], 1)
for k = 1, 7 do
  redis.call("EXPIRE", KEYS[k], ARGV[3])
end
return 1
