package redis

import (
	"context"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

var _ sessions.TailReader = (*Service)(nil)

// tailScript reads a session in one consistent snapshot as getScript reads
// it whole, but from the held position on when the session is still the
// incarnation the caller read (the nonce its create stored): events are
// only ever appended to a session's list, and a session created again under
// its id has a new nonce.
//
// KEYS: meta, events, ts, state, app state, user state.
// ARGV: held events, held nonce (empty for none).
// Returns nil when there is no session, else {version, state pairs, app
// pairs, user pairs, events, first position read, length, nonce}; the first
// five are getScript's reply.
var tailScript = goredis.NewScript(`
local m = redis.call('HMGET', KEYS[1], 'ver', 'nonce')
if not m[1] then
  return false
end
local len = redis.call('LLEN', KEYS[2])
local nonce = m[2] or ''
local from = 0
local held = tonumber(ARGV[1])
if nonce ~= '' and nonce == ARGV[2] and held <= len then
  from = held
end
local events = {}
if from < len then
  events = redis.call('LRANGE', KEYS[2], from, -1)
end
return {m[1], redis.call('HGETALL', KEYS[4]), redis.call('HGETALL', KEYS[5]),
  redis.call('HGETALL', KEYS[6]), events, from, len, nonce}
`)

// GetTail implements [sessions.TailReader] in one round trip (on Redis
// Cluster, app state is read concurrently, in a second one): a session
// still of the held incarnation sends only the events past the held ones.
func (s *Service) GetTail(ctx context.Context, req sessions.GetRequest, held sessions.Held) (*v1.Session, sessions.Held, bool, error) {
	const op = "sessions.get_tail"
	if req.Select != sessions.SelectAll || req.NumRecentEvents != 0 || req.AfterTimestamp != 0 {
		return nil, sessions.Held{}, false, errors.New(op + ": the request must select all events")
	}
	keys := s.keys.read(req)
	reply, err := s.runRead(ctx, tailScript, keys, req.AppName, 2, max(held.Events, 0), held.Incarnation)
	if errors.Is(err, goredis.Nil) {
		return nil, sessions.Held{}, false, fmt.Errorf("%s: %w: %q", op, sessions.ErrNotFound, req.SessionID)
	}
	if err != nil {
		return nil, sessions.Held{}, false, classify(ctx, op, err)
	}
	if len(reply) != 8 {
		return nil, sessions.Held{}, false, fmt.Errorf("%s: unexpected reply of %d elements", op, len(reply))
	}
	sess, err := s.decodeSession(ctx, keys, req, reply[:5])
	if err != nil {
		return nil, sessions.Held{}, false, fmt.Errorf("%s: %w", op, err)
	}
	from, _ := reply[5].(int64)
	n, _ := reply[6].(int64)
	nonce, _ := reply[7].(string)
	tail := nonce != "" && nonce == held.Incarnation && int(from) == held.Events
	return sess, sessions.Held{Events: int(n), Incarnation: nonce}, tail, nil
}
