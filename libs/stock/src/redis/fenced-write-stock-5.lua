--[[
  Writes a stock key for a holder with a fencing token: refused when a higher token has reached the
  stock (read or written it), so a holder that lost its lock without knowing writes nothing.
  An equal token is accepted: the holder's own read registered it. A written take is noted in the
  run's stock moves under the request id, as write-stock does; sent again after a lost reply, the same
  request writing the same value finds its take noted last and does nothing.

  KEYS[1] stock key
  KEYS[2] the highest fencing token the stock has seen
  KEYS[3] the run's stock moves (hash: request id -> its moves, "t<units>:<stock left>" per take, "g<units>" per give-back)
  KEYS[4] the run's order stream (orderWrite 'stream')
  KEYS[5] the streamed order's idempotency key claim (see append-order)
  ARGV[1] new stock value
  ARGV[2] the holder's fencing token
  ARGV[3] units taken
  ARGV[4] request id
  ARGV[5] the order to append with the take (JSON), or "" to append none
  ARGV[6] seconds to keep the claim, or "" to claim nothing

  A stock key that is gone (Redis restarted without persistence, or was flushed) is not created again
  with a value read before the loss (see write-stock).

  Returns 1 when written (or already written by this request), 0 when refused (nothing changes), -2
  when the stock key (or, with an order given, the order stream) does not exist (nothing changes),
  "claimed" if another request holds the idempotency key (nothing changes).
]]
--- @include "includes/write-take"
if redis.call("EXISTS", KEYS[1]) == 0 or streamGone(KEYS[4], ARGV[5]) then
  return -2
end
local highest = tonumber(redis.call("GET", KEYS[2]) or "0")
if tonumber(ARGV[2]) < highest then
  return 0
end
return writeTake(
  { stock = KEYS[1], moves = KEYS[3], orders = KEYS[4], claim = KEYS[5] },
  { value = ARGV[1], units = ARGV[3], requestId = ARGV[4], order = ARGV[5], claimSeconds = ARGV[6] },
  function()
    redis.call("SET", KEYS[2], ARGV[2])
  end
)
