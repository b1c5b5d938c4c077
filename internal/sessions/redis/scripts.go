package redis

import goredis "github.com/redis/go-redis/v9"

// The Lua scripts run atomically on the server: a script's writes are all
// applied or, when it is rejected or the server dies before running it, none
// are; persistence and replicas receive its effects as one transaction. Each
// is sent with EVALSHA, falling back to EVAL once when the server's script
// cache lacks it (after a restart or SCRIPT FLUSH).
//
// Every script declares all the keys it touches. The keys of one session share
// a hash tag, but app and user state (and the session index) live in other
// slots, so create, get and append need all their keys on one node: a
// standalone server or a primary with replicas. See the package doc for
// Redis Cluster.

// luaHelpers are shared by the writing scripts.
const luaHelpers = `
-- hset_pairs writes count field/value pairs taken from ARGV[from...] into
-- key, in chunks that stay far below Lua's unpack limit. It returns the index
-- of the first ARGV after the pairs.
local function hset_pairs(key, from, count)
  local i = 0
  while i < count do
    local args = {}
    local j = 0
    while j < 256 and i < count do
      args[#args + 1] = ARGV[from + 2 * i]
      args[#args + 1] = ARGV[from + 2 * i + 1]
      i = i + 1
      j = j + 1
    end
    redis.call('HSET', key, unpack(args))
  end
  return from + 2 * count
end

local function expire_all(ttl, keys)
  if ttl > 0 then
    for _, k in ipairs(keys) do
      redis.call('PEXPIRE', k, ttl)
    end
  end
end
`

// createScript stores a new session.
//
// KEYS: meta, state, events, ts, app state, user state, index.
// ARGV: id, nonce, version, ttl ms, #session pairs, #app pairs, #user pairs,
// then the pairs in that order.
// Returns {code, app state pairs, user state pairs}; code 1 when created, 2
// when this very create (same nonce) already ran, 0 when the id is taken.
var createScript = goredis.NewScript(luaHelpers + `
local function created(code)
  return {code, redis.call('HGETALL', KEYS[5]), redis.call('HGETALL', KEYS[6])}
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'nonce') == ARGV[2] then
    return created(2)
  end
  return {0}
end
-- Leftovers of a session that expired under this id must not resurface.
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], 'ver', ARGV[3], 'created', ARGV[3], 'nonce', ARGV[2], 'last_event', '', 'bytes', '0',
  'bounded', '1')
local at = 8
at = hset_pairs(KEYS[2], at, tonumber(ARGV[5]))
at = hset_pairs(KEYS[5], at, tonumber(ARGV[6]))
at = hset_pairs(KEYS[6], at, tonumber(ARGV[7]))
redis.call('ZADD', KEYS[7], ARGV[3], ARGV[1])
expire_all(tonumber(ARGV[4]), {KEYS[1], KEYS[2], KEYS[7]})
return created(1)
`)

// appendScript appends one event: version check, event push, timestamp
// index, state delta of the three scopes, version bump, TTL refresh.
//
// KEYS: meta, events, ts, state, app state, user state, index.
// ARGV: expected version, new version, event id, event bytes, timestamp,
// ttl ms, max events, max bytes, mark (see [sessions.Mark]), invocation id,
// summary start, summary end, #session pairs, #app pairs, #user pairs, then
// the pairs.
// Returns {code, stored version}: 0 no such session, 1 stale handle, 3
// appended; or {2, stored version, stored timestamp} when this event is
// already the last one stored (a retried append whose first attempt was
// applied), because the retry may carry a timestamp of its own and the
// caller must take the stored one; or {4, stored version, events, bytes}
// when the event would take the session past its limits. The meta field
// "bytes" is the encoded size of the stored events; a session written before
// it existed has its events counted on its next append. The meta fields
// "cover", "rewound", "inv", "inv_start" and "marks" (the summaries not
// superseded, as "index:mark:start:end,") keep the boundary of the compacted selection, as
// [sessions.Boundary] does; they are kept only for sessions created with
// the field "bounded", so that an older session is read whole.
var appendScript = goredis.NewScript(luaHelpers + `
local function mark_boundary(i, mark, inv, first, last)
  if mark == 0 or mark == 3 then
    if i == 0 or redis.call('HGET', KEYS[1], 'inv') ~= inv then
      redis.call('HSET', KEYS[1], 'inv', inv, 'inv_start', i)
    end
    if mark == 3 then
      redis.call('HSET', KEYS[1], 'rewound', '1', 'cover', '0')
    end
    return
  end
  local marks = redis.call('HGET', KEYS[1], 'marks') or ''
  local summary = {}
  for m in string.gmatch(marks, '(%d+):%d:[^,]*,') do
    summary[tonumber(m)] = true
  end
  if mark == 1 then
    -- Drop the summaries this one supersedes.
    local kept = {}
    for m, k, s, e in string.gmatch(marks, '(%d+):(%d):([^:,]+):([^:,]+),') do
      if not (k == '1' and first <= tonumber(s) and tonumber(e) <= last) then
        kept[#kept + 1] = m .. ':' .. k .. ':' .. s .. ':' .. e .. ','
      end
    end
    marks = table.concat(kept)
  end
  redis.call('HSET', KEYS[1], 'marks', marks .. i .. ':' .. mark .. ':' .. ARGV[11] .. ':' .. ARGV[12] .. ',')
  if mark ~= 1 or redis.call('HEXISTS', KEYS[1], 'rewound') == 1 then
    return
  end
  local cover = tonumber(redis.call('HGET', KEYS[1], 'cover') or '0')
  while cover < i do
    local t = tonumber(redis.call('ZSCORE', KEYS[3], cover))
    if not summary[cover] and (t == nil or t < first or t > last) then
      break
    end
    cover = cover + 1
  end
  redis.call('HSET', KEYS[1], 'cover', cover)
end
local cur = redis.call('HMGET', KEYS[1], 'ver', 'last_event')
if not cur[1] then
  return {0, ''}
end
if cur[1] ~= ARGV[1] then
  if cur[2] == ARGV[3] then
    local last = redis.call('LLEN', KEYS[2]) - 1
    return {2, cur[1], redis.call('ZSCORE', KEYS[3], last)}
  end
  return {1, cur[1]}
end
local len = redis.call('LLEN', KEYS[2])
local bytes = redis.call('HGET', KEYS[1], 'bytes')
if bytes then
  bytes = tonumber(bytes)
else
  -- A session stored before sizes were tracked: count its events once.
  bytes = 0
  if len > 0 then
    for _, e in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
      bytes = bytes + #e
    end
  end
end
if len >= tonumber(ARGV[7]) or bytes + #ARGV[4] > tonumber(ARGV[8]) then
  return {4, cur[1], len, tostring(bytes)}
end
local n = redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[5], n - 1)
redis.call('HSET', KEYS[1], 'bytes', tostring(bytes + #ARGV[4]))
if redis.call('HEXISTS', KEYS[1], 'bounded') == 1 then
  mark_boundary(n - 1, tonumber(ARGV[9]), ARGV[10], tonumber(ARGV[11]), tonumber(ARGV[12]))
end
local at = 16
at = hset_pairs(KEYS[4], at, tonumber(ARGV[13]))
at = hset_pairs(KEYS[5], at, tonumber(ARGV[14]))
at = hset_pairs(KEYS[6], at, tonumber(ARGV[15]))
redis.call('HSET', KEYS[1], 'ver', ARGV[2], 'last_event', ARGV[3])
expire_all(tonumber(ARGV[6]), {KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[7]})
return {3, ARGV[2]}
`)

// getScript reads a session in one consistent snapshot. With a count it
// reads the last n events from the list's tail; with only a timestamp it
// finds the first list index at or after it in the timestamp index and reads
// from there; the caller drops the events before the timestamp. Neither reads
// the whole history.
//
// The selection "none" reads no events; "compacted" reads the summaries
// before the boundary one by one and the events from it on (see
// appendScript and [sessions.SelectCompacted]).
//
// KEYS: meta, events, ts, state, app state, user state.
// ARGV: n (0 for no limit), timestamp (empty for none), selection (empty,
// "none" or "compacted").
// Returns nil when there is no session, else {version, state pairs, app
// pairs, user pairs, events}.
var getScript = goredis.NewScript(`
local ver = redis.call('HGET', KEYS[1], 'ver')
if not ver then
  return false
end
local n = tonumber(ARGV[1])
local events
if ARGV[3] == 'none' then
  events = {}
elseif ARGV[3] == 'compacted' then
  local b = redis.call('HMGET', KEYS[1], 'cover', 'inv_start', 'marks')
  local from = math.min(tonumber(b[1] or '0'), tonumber(b[2] or '0'))
  events = {}
  for m in string.gmatch(b[3] or '', '(%d+):%d:[^,]*,') do
    local i = tonumber(m)
    if i >= from then
      break
    end
    events[#events + 1] = redis.call('LINDEX', KEYS[2], i)
  end
  for _, e in ipairs(redis.call('LRANGE', KEYS[2], from, -1)) do
    events[#events + 1] = e
  end
elseif n > 0 then
  events = redis.call('LRANGE', KEYS[2], -n, -1)
elseif ARGV[2] ~= '' then
  local len = redis.call('LLEN', KEYS[2])
  local first = len
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], ARGV[2], '+inf')) do
    local i = tonumber(m)
    if i < first then
      first = i
    end
  end
  if first < len then
    events = redis.call('LRANGE', KEYS[2], first - len, -1)
  else
    events = {}
  end
else
  events = redis.call('LRANGE', KEYS[2], 0, -1)
end
return {ver, redis.call('HGETALL', KEYS[4]), redis.call('HGETALL', KEYS[5]),
  redis.call('HGETALL', KEYS[6]), events}
`)

// deleteScript removes a session's keys and its index entry; the lease, if
// any, runs out on its own.
//
// KEYS: meta, events, ts, state, index. ARGV: id.
var deleteScript = goredis.NewScript(`
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('ZREM', KEYS[5], ARGV[1])
return 1
`)

// acquireScript takes a lease or renews one the owner holds.
//
// KEYS: lease. ARGV: owner, ttl ms. Returns 1 when held by owner, else 0.
var acquireScript = goredis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if cur then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
return 1
`)

// renewScript extends a lease only while owner still holds it.
//
// KEYS: lease. ARGV: owner, ttl ms. Returns 1 when renewed, 0 when lost.
var renewScript = goredis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`)

// releaseScript deletes a lease only while owner still holds it.
//
// KEYS: lease. ARGV: owner. Returns 1 when deleted, 0 when not held.
var releaseScript = goredis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`)

// pruneScript removes index entries whose session no longer exists.
//
// KEYS: index, then the meta key of each candidate. ARGV: the candidates' ids.
var pruneScript = goredis.NewScript(`
for i, id in ipairs(ARGV) do
  if redis.call('EXISTS', KEYS[i + 1]) == 0 then
    redis.call('ZREM', KEYS[1], id)
  end
end
return 1
`)
