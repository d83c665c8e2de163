--[[
  Acquires or re-enters a reentrant lock (Redisson's RLock layout: a hash whose single field is the
  owner and whose value counts how many times that owner holds it), fairly between processes: a free
  lock goes to the process that has waited longest (Redisson's RedissonFairLock, with one place in
  the queue per process, not per caller: a process's own callers already wait in line inside it).

  KEYS[1] lock key
  KEYS[2] queue: zset process id -> when it took its place (Redis's clock, in microseconds)
  KEYS[3] queue's places kept: hash process id -> Redis time in ms until which its place is kept
  ARGV[1] lease in ms
  ARGV[2] owner id (instance:request)
  ARGV[3] process id
  ARGV[4] "1": the caller will wait, so its process takes (or keeps) a place in the queue; "0": one try
  ARGV[5] how long a place is kept without its process trying again, in ms

  Returns nil when the caller now holds the lock (first time or re-entered; the lease restarts).
  Otherwise how long to wait at most before trying again, in ms: the lock's remaining time to live,
  or, when it is free but another process's turn, until that process's place lapses.
]]
--- @include "includes/nextInLine"

local owner = ARGV[2]
local process = ARGV[3]
if redis.call("HEXISTS", KEYS[1], owner) == 1 then
  redis.call("HINCRBY", KEYS[1], owner, 1)
  redis.call("PEXPIRE", KEYS[1], ARGV[1])
  return nil
end

local time = redis.call("TIME")
local nowMs = nowMsOf(time)
local keepMs = tonumber(ARGV[5])
local function keptUntil(queued)
  return tonumber(redis.call("HGET", KEYS[3], queued) or "0")
end

local firstKeptUntil = nil
if redis.call("EXISTS", KEYS[1]) == 0 then
  local first
  first, firstKeptUntil = firstInLine(KEYS[2], KEYS[3], nowMs)
  if first == nil or first == process then
    redis.call("ZREM", KEYS[2], process)
    redis.call("HDEL", KEYS[3], process)
    redis.call("HINCRBY", KEYS[1], owner, 1)
    redis.call("PEXPIRE", KEYS[1], ARGV[1])
    return nil
  end
end

if ARGV[4] == "1" then
  -- A place of ours that has lapsed but was not dropped yet is taken anew, at the back.
  local score = tonumber(time[1]) * 1000000 + tonumber(time[2])
  if keptUntil(process) < nowMs then
    redis.call("ZADD", KEYS[2], score, process)
  else
    redis.call("ZADD", KEYS[2], "NX", score, process)
  end
  redis.call("HSET", KEYS[3], process, nowMs + keepMs)
  -- The queue lives as long as its longest-kept place: a process with a shorter lease must not cut it.
  for _, key in ipairs({ KEYS[2], KEYS[3] }) do
    if redis.call("PTTL", key) < keepMs then
      redis.call("PEXPIRE", key, keepMs)
    end
  end
end
if firstKeptUntil ~= nil then
  return math.max(1, firstKeptUntil - nowMs)
end
return redis.call("PTTL", KEYS[1])
