--[[
  Functions on the watchdog's queue of processes (watchdog-acquire-3.lua): the first process whose
  place is still kept, and the announcement of a free lock to it.
]]
local function nowMsOf(time)
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

--[[
  The first process in the queue whose place is kept at nowMs, and until when; nil if none. A place
  whose process stopped trying (died, or gave up without leaving) is dropped on the way: it blocks no one.
]]
local function firstInLine(queue, seen, nowMs)
  while true do
    local first = redis.call("ZRANGE", queue, 0, 0)[1]
    if first == nil then
      return nil, nil
    end
    local keptUntil = tonumber(redis.call("HGET", seen, first) or "0")
    if keptUntil >= nowMs then
      return first, keptUntil
    end
    redis.call("ZREM", queue, first)
    redis.call("HDEL", seen, first)
  end
end

--[[
  Announces that the lock is free to the process whose turn it is: the message names it, so only that
  process's waiting head tries again (the others would be refused). With no process in line the
  message is "released", for every listener: their heads race for the lock (the unfair mode).
]]
local function announceFree(channel, queue, seen)
  local next = firstInLine(queue, seen, nowMsOf(redis.call("TIME")))
  redis.call("PUBLISH", channel, next or "released")
end
