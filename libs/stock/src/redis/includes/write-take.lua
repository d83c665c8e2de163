--[[
  A take as a whole-value write (the lock strategies' SET of the value read minus n), for the scripts
  write-stock and fenced-write-stock: noted as "t<units>:<value>", so the same request sent again after
  a lost reply, writing the same value, finds its take noted last and writes nothing.
]]
--- @include "append-order"
--- @include "stock-moves"

-- cell: the keys stock, moves, orders, claim; take: value, units, requestId, order, claimSeconds.
-- beforeWrite (optional) runs just before the stock is written. Returns 1 when written (or already
-- written by this request), CLAIMED when another request holds the idempotency key (nothing written).
local function writeTake(cell, take, beforeWrite)
  local moves = redis.call("HGET", cell.moves, take.requestId)
  local move = "t" .. take.units .. ":" .. take.value
  if moves and string.sub(moves, -#move) == move then
    return 1
  end
  if claimedByAnother(cell.claim, take.claimSeconds, take.requestId) then
    return CLAIMED
  end
  if beforeWrite then
    beforeWrite()
  end
  redis.call("SET", cell.stock, take.value)
  noteMove(cell.moves, take.requestId, moves, move)
  appendOrder(cell.orders, take.order, cell.claim, take.claimSeconds, take.requestId)
  return 1
end
