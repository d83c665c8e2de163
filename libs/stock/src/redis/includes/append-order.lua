--[[
  orderWrite 'stream': appends the order of the take this script just made to the run's order stream,
  in the same atomic step, so no unit is taken without its order and no order is appended without its
  units. The order is the JSON the caller encoded (request id, product, run, quantity, strategy,
  idempotency key); the entry's id carries Redis's time of the take. An empty order (sync, queued)
  appends nothing: the caller writes it.
]]
local function appendOrder(stream, order)
  if order ~= "" then
    redis.call("XADD", stream, "*", "o", order)
  end
end
