--[[
  A request's moves in the run's stock moves hash, under its request id: "t<units>:<stock left>" per
  take, "g<units>" per give-back, space-separated (parseRequestMoves reads them).
]]

-- The stock left that this request's take answered, or nil if it took nothing yet: a take sent again
-- (ioredis re-sends a command whose connection died before the reply) answers what it answered then.
local function leftAfterTake(movesKey, requestId)
  local took = redis.call("HGET", movesKey, requestId)
  if took then
    return tonumber(string.match(took, "^t%d+:(%-?%d+)"))
  end
  return nil
end

-- Adds a move after the request's earlier ones (`moves`, false if none).
local function noteMove(movesKey, requestId, moves, move)
  redis.call("HSET", movesKey, requestId, moves and (moves .. " " .. move) or move)
end
