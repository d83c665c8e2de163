--[[
  Lets go of an idempotency key claimed for a queued order that never was (its units went back), so
  the client's retry with the same key is served instead of refused as "already used" for a day. Only
  the claim of this request is deleted: another request's claim, or a written order's mark, stays.

  KEYS[1] the key's claim
  ARGV[1] the request id that claimed it

  Returns 1 if the claim was deleted, 0 if it names someone else (or is gone).
]]
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1])
end
return 0
