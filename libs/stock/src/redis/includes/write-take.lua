--[[
  A take as a whole-value write (the lock strategies' SET of the value read minus n): noted as
  "t<units>:<value>", so the same request sent again after a lost reply, writing the same value, finds
  its take noted last and writes nothing.
]]
--- @include "stock-moves"

-- The request's moves so far, its take, and whether that take is already its last move.
local function writtenTake(movesKey, requestId, units, value)
  local moves = redis.call("HGET", movesKey, requestId)
  local take = "t" .. units .. ":" .. value
  return moves, take, moves ~= false and string.sub(moves, -#take) == take
end

local function writeTake(stockKey, movesKey, requestId, value, moves, take)
  redis.call("SET", stockKey, value)
  noteMove(movesKey, requestId, moves, take)
end
