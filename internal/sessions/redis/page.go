package redis

import (
	"context"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// pageScript reads one page of a session's events in one consistent
// snapshot: LRANGE of the page only, cut on the server before the byte
// budget, so that neither the history nor an over-budget page crosses the
// network.
//
// KEYS: meta, events, ts, state, app state, user state.
// ARGV: next position (-1 to start a listing), end position, n (0 for no
// limit), timestamp (empty for none), page size, byte budget (0 for none).
// Returns nil when there is no session, else {version, state pairs, app
// pairs, user pairs, events, next position, end position}; the first five
// are getScript's reply.
var pageScript = goredis.NewScript(`
local ver = redis.call('HGET', KEYS[1], 'ver')
if not ver then
  return false
end
local len = redis.call('LLEN', KEYS[2])
local first, last
if tonumber(ARGV[1]) < 0 then
  local n = tonumber(ARGV[3])
  first = 0
  if n > 0 then
    first = math.max(len - n, 0)
  elseif ARGV[4] ~= '' then
    first = len
    for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], ARGV[4], '+inf')) do
      local i = tonumber(m)
      if i < first then
        first = i
      end
    end
  end
  last = len
else
  first = tonumber(ARGV[1])
  last = math.min(tonumber(ARGV[2]), len)
end
local stop = math.min(first + tonumber(ARGV[5]), last)
local out = {}
if stop > first then
  local budget = tonumber(ARGV[6])
  local used = 0
  for _, e in ipairs(redis.call('LRANGE', KEYS[2], first, stop - 1)) do
    if budget > 0 and #out > 0 and used + #e > budget then
      break
    end
    used = used + #e
    out[#out + 1] = e
  end
end
return {ver, redis.call('HGETALL', KEYS[4]), redis.call('HGETALL', KEYS[5]),
  redis.call('HGETALL', KEYS[6]), out, first + #out, last}
`)

// GetPage implements [sessions.Service] in one round trip.
func (s *Service) GetPage(ctx context.Context, req sessions.GetRequest, page sessions.PageRequest) (*v1.Session, sessions.Cursor, error) {
	const op = "sessions.get_page"
	if page.Size <= 0 {
		return nil, sessions.Cursor{}, errors.New(op + ": page size must be positive")
	}
	keys := s.keys.read(req)
	after := ""
	if req.AfterTimestamp > 0 {
		after = formatScore(req.AfterTimestamp)
	}
	next, end := -1, 0
	if !page.Cursor.Start() {
		next, end = max(page.Cursor.Next, 0), page.Cursor.End
	}
	reply, err := s.runRead(ctx, pageScript, keys, req.AppName, 2, next, end, max(req.NumRecentEvents, 0), after,
		page.Size, max(page.MaxBytes, 0))
	if errors.Is(err, goredis.Nil) {
		return nil, sessions.Cursor{}, fmt.Errorf("%s: %w: %q", op, sessions.ErrNotFound, req.SessionID)
	}
	if err != nil {
		return nil, sessions.Cursor{}, classify(ctx, op, err)
	}
	if len(reply) != 7 {
		return nil, sessions.Cursor{}, fmt.Errorf("%s: unexpected reply of %d elements", op, len(reply))
	}
	sess, err := s.decodeSession(ctx, keys, req, reply[:5])
	if err != nil {
		return nil, sessions.Cursor{}, fmt.Errorf("%s: %w", op, err)
	}
	n, _ := reply[5].(int64)
	e, _ := reply[6].(int64)
	return sess, sessions.Cursor{Next: int(n), End: int(e)}, nil
}
