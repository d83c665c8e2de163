--[[
  Deletes an order stream only if it holds no entry (every order written): checked and done in one
  step, so an order appended meanwhile is never deleted with it. Takes refuse a run whose stream is
  gone (append-order's streamGone), so none can append to it afterwards either. The caller then
  unlists it (a separate command: on a Redis Cluster the list and the stream are in different slots;
  a stream listed after it went is unlisted by the writers, who find it missing).

  KEYS[1] the order stream

  Returns 1 when deleted, 0 when it still holds entries (nothing changes).
]]
if redis.call("XLEN", KEYS[1]) > 0 then
  return 0
end
redis.call("DEL", KEYS[1])
return 1
