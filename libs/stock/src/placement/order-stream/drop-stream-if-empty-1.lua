--[[
  Deletes an order stream and unlists it, only if it holds no entry (every order written): checked and
  done in one step, so an order appended meanwhile is never deleted with it. Takes refuse a run whose
  stream is gone (append-order's streamGone), so none can append to it afterwards either.

  KEYS[1] the order stream
  KEYS[2] the set of the lab's order streams
  Both on one Redis: order streams are not used on a Cluster.

  Returns 1 when deleted, 0 when it still holds entries (nothing changes).
]]
if redis.call("XLEN", KEYS[1]) > 0 then
  return 0
end
redis.call("DEL", KEYS[1])
redis.call("SREM", KEYS[2], KEYS[1])
return 1
