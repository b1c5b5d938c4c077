package redis

import (
	"strconv"

	goredis "github.com/redis/go-redis/v9"
)

// The Lua scripts run atomically on the server, each on the one node that
// holds its user's slot, and declare every key they touch. They are sent
// with EVALSHA, falling back to EVAL when the node's script cache lacks
// them. Lua turns numbers into strings with 14 significant digits, so
// scores and ids, which reach 2^53, are formatted with %d.

// positionsPerSession is how many entries one session may hold: a score is
// seq*positionsPerSession + index, exact in a double while seq stays below
// maxSessions.
const (
	positionsPerSession = 1 << 24
	maxSessions         = 1 << 29
)

// luaChunks is shared by the scripts.
const luaChunks = `
-- call runs cmd with key and the items of list, in as many calls as it
-- takes to stay far below Lua's unpack limit.
local function call(cmd, key, list)
  for from = 1, #list, 512 do
    local args = {}
    for i = from, math.min(from + 511, #list) do
      args[#args + 1] = list[i]
    end
    redis.call(cmd, key, unpack(args))
  end
end
`

// addScript replaces the entries remembered of one session.
//
// KEYS: sessions, added, entries, then the word keys of the session's old
// and new words (declared; the script names them from the word prefix).
// ARGV: session id, the session's record as the caller last read it ("" for
// none), max entries (-1: none), word key prefix, #entries, #words, the
// entries, then per word: the word, #entries holding it, their indexes.
// Returns {0, record} when the session's record is not the one the caller
// read (it retries with the old words declared), {1, total} when the user
// would hold too many entries, {2} when too many sessions were added, {3}
// when done.
var addScript = goredis.NewScript(luaChunks + `
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then
  return {0, current}
end
local n = tonumber(ARGV[5])
local tokens = {}
for token in string.gmatch(current, '%S+') do
  tokens[#tokens + 1] = token
end
local seq, old_n = tonumber(tokens[1]), tonumber(tokens[2] or '0')
local total = redis.call('HLEN', KEYS[3]) - old_n + n
local max = tonumber(ARGV[3])
if max >= 0 and total > max then
  return {1, total}
end
if not seq then
  local added = tonumber(redis.call('GET', KEYS[2]) or '0')
  if added >= ` + strconv.Itoa(maxSessions) + ` then
    return {2}
  end
  seq = redis.call('INCR', KEYS[2]) - 1
end
local base = seq * ` + strconv.Itoa(positionsPerSession) + `
local first, past = string.format('%d', base), string.format('(%d', base + ` + strconv.Itoa(positionsPerSession) + `)
for i = 3, #tokens do
  redis.call('ZREMRANGEBYSCORE', ARGV[4] .. tokens[i], first, past)
end
local stale = {}
for i = 0, old_n - 1 do
  stale[#stale + 1] = string.format('%d:%d', seq, i)
end
call('HDEL', KEYS[3], stale)
local at = 7
local fields = {}
for i = 0, n - 1 do
  fields[#fields + 1] = string.format('%d:%d', seq, i)
  fields[#fields + 1] = ARGV[at + i]
end
call('HSET', KEYS[3], fields)
at = at + n
local record = {string.format('%d %d', seq, n)}
for _ = 1, tonumber(ARGV[6]) do
  local w, count = ARGV[at], tonumber(ARGV[at + 1])
  at = at + 2
  local members = {}
  for i = at, at + count - 1 do
    local index = tonumber(ARGV[i])
    members[#members + 1] = string.format('%d', base + index)
    members[#members + 1] = string.format('%d:%d', seq, index)
  end
  at = at + count
  call('ZADD', ARGV[4] .. w, members)
  record[#record + 1] = w
end
redis.call('HSET', KEYS[1], ARGV[1], table.concat(record, ' '))
return {3}
`)

// searchScript returns the entries holding any of the words whose keys it
// is given, in search order, at most a limit.
//
// KEYS: entries, then the word keys of the query's words.
// ARGV: the limit (-1: none).
// Returns the entries, protobuf-encoded.
var searchScript = goredis.NewScript(luaChunks + `
local limit = tonumber(ARGV[1])
local words = #KEYS - 1
local function union(from, to)
  local args = {to - from + 1}
  for i = from, to do
    args[#args + 1] = KEYS[i]
  end
  args[#args + 1] = 'AGGREGATE'
  args[#args + 1] = 'MIN'
  return args
end
local ids
if words == 1 then
  local stop = -1
  if limit >= 0 then
    stop = limit - 1
  end
  ids = redis.call('ZRANGE', KEYS[2], 0, stop)
elseif words <= 1024 then
  ids = redis.call('ZUNION', unpack(union(2, #KEYS)))
else
  -- Past Lua's unpack limit: unite in chunks, then order by score.
  local score = {}
  for from = 2, #KEYS, 1024 do
    local args = union(from, math.min(from + 1023, #KEYS))
    args[#args + 1] = 'WITHSCORES'
    local reply = redis.call('ZUNION', unpack(args))
    for i = 1, #reply, 2 do
      score[reply[i]] = tonumber(reply[i + 1])
    end
  end
  ids = {}
  for id in pairs(score) do
    ids[#ids + 1] = id
  end
  table.sort(ids, function(a, b) return score[a] < score[b] end)
end
local found = {}
local last = #ids
if limit >= 0 and limit < last then
  last = limit
end
for from = 1, last, 512 do
  local args = {}
  for i = from, math.min(from + 511, last) do
    args[#args + 1] = ids[i]
  end
  for _, entry in ipairs(redis.call('HMGET', KEYS[1], unpack(args))) do
    if entry then
      found[#found + 1] = entry
    end
  end
end
return found
`)
