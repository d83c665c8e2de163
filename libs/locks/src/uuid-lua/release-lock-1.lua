--[[
  Releases a lock only if the caller still owns it: compare and delete in one atomic step.
  A GET followed by a separate DEL could delete a lock that expired and was taken by someone else
  between the two commands; inside one script nothing runs in between.

  KEYS[1] lock key
  ARGV[1] the owner's token (the value it wrote with SET NX)

  Returns 1 if the lock was ours and is now deleted, 0 if it was not ours (expired, maybe re-taken).
]]
if redis.call("GET", KEYS[1]) == ARGV[1] then
  return redis.call("DEL", KEYS[1])
end
return 0
