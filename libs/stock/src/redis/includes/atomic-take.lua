--[[
  The steps a one-script take (decrement-stock, decrement-counter) shares, for its KEYS and ARGV:
  stock key, stock moves, order stream and idempotency claim in KEYS[1..4] (as write-stock's first
  four); in ARGV[1..4] the units, the request id, the order to append (JSON, or "" for none) and the
  seconds to keep the claim (or "" to claim nothing).
]]
--- @include "append-order"
--- @include "stock-moves"

-- What the take answers before it looks at the stock: its first answer when sent again (ioredis re-sends
-- a command whose connection died before the reply), CLAIMED when another request holds the key; else nil.
local function answeredAlready()
  local took = leftAfterTake(KEYS[2], ARGV[2])
  if took then
    return took
  end
  if claimedByAnother(KEYS[4], ARGV[4], ARGV[2]) then
    return CLAIMED
  end
  return nil
end

-- Notes the take of ARGV[1] units that left `left`, and with `withOrder` appends its order (and claims its key).
local function noteTake(left, withOrder)
  noteMove(KEYS[2], ARGV[2], false, "t" .. ARGV[1] .. ":" .. left)
  if withOrder then
    appendOrder(KEYS[3], ARGV[3], KEYS[4], ARGV[4], ARGV[2])
  end
end
