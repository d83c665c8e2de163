-- One change of the course's state, atomic: the version grows by one, and the new state is published
-- in the same step, so followers on every instance see the changes in version order.
-- KEYS[1] the state's hash
-- ARGV[1] '1' with a lesson, '0' for none; ARGV[2] the lesson's id; ARGV[3] the runs as a JSON array,
-- or '' to keep them when the lesson stays the same (else cleared); ARGV[4] the ISO time; ARGV[5] the channel
local key = KEYS[1]
local lesson = false
if ARGV[1] == '1' then lesson = ARGV[2] end
local runIds = ARGV[3]
if runIds == '' then
  runIds = '[]'
  if redis.call('HGET', key, 'lessonId') == lesson then runIds = redis.call('HGET', key, 'runIds') or '[]' end
end
local version = redis.call('HINCRBY', key, 'version', 1)
if lesson then redis.call('HSET', key, 'lessonId', lesson) else redis.call('HDEL', key, 'lessonId') end
redis.call('HSET', key, 'runIds', runIds, 'updatedAt', ARGV[4])
-- Written out rather than cjson.encode'd: cjson writes an empty array as {}.
local lessonJson = 'null'
if lesson then lessonJson = cjson.encode(lesson) end
local state = '{"lessonId":' .. lessonJson .. ',"runIds":' .. runIds .. ',"version":' .. version .. ',"updatedAt":' .. cjson.encode(ARGV[4]) .. '}'
redis.call('PUBLISH', ARGV[5], state)
return state
