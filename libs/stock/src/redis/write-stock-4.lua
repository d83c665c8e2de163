--[[
  Writes a stock key for a holder that read it (GET, check, SET of the value read minus n) and notes the
  take in the run's stock moves under the request id, in one step. The write is of a whole value, so
  two holders that read the same stock both write it and both are noted: the moves then say more units
  were taken than the stock shows (lost updates), which is what the lab must be able to show.

  Sent again after a lost reply (ioredis re-sends), the same request writing the same value finds its
  take already noted last and does nothing.

  A stock key that is gone (Redis restarted without persistence, or was flushed) is not written: a
  holder that read the stock before the loss would otherwise create it again with the value it read,
  stock conjured that later orders sell.

  KEYS[1] stock key
  KEYS[2] the run's stock moves (hash: request id -> its moves, "t<units>:<stock left>" per take, "g<units>" per give-back)
  KEYS[3] the run's order stream (orderWrite 'stream')
  KEYS[4] the streamed order's idempotency key claim (see append-order)
  ARGV[1] new stock value
  ARGV[2] units taken
  ARGV[3] request id
  ARGV[4] the order to append with the take (JSON), or "" to append none
  ARGV[5] seconds to keep the claim, or "" to claim nothing

  Returns 1 when written (or already written by this request), -2 when the stock key (or, with an order
  given, the order stream) does not exist, "claimed" if another request holds the idempotency key
  (nothing written).
]]
--- @include "includes/write-take"
if redis.call("EXISTS", KEYS[1]) == 0 or streamGone(KEYS[3], ARGV[4]) then
  return -2
end
return writeTake(
  { stock = KEYS[1], moves = KEYS[2], orders = KEYS[3], claim = KEYS[4] },
  { value = ARGV[1], units = ARGV[2], requestId = ARGV[3], order = ARGV[4], claimSeconds = ARGV[5] }
)
