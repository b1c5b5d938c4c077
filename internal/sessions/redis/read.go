package redis

import (
	"context"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
)

// Get implements [sessions.Service] in one round trip that reads a
// consistent snapshot (on Redis Cluster, app state is read concurrently, in
// a second one). Selecting the last N events reads N list entries from
// the tail; selecting by timestamp finds the first matching entry in the
// timestamp index and reads from there; the compacted selection reads the
// summaries kept in the session's meta one by one and the list from the
// boundary on. The full history is read only when asked for.
func (s *Service) Get(ctx context.Context, req sessions.GetRequest) (*v1.Session, error) {
	const op = "sessions.get"
	keys := s.keys.read(req)
	after, selection := "", ""
	switch req.Select {
	case sessions.SelectNone:
		selection = "none"
	case sessions.SelectCompacted:
		selection = "compacted"
	}
	if selection != "" {
		req.NumRecentEvents, req.AfterTimestamp = 0, 0
	}
	if req.AfterTimestamp > 0 {
		after = formatScore(req.AfterTimestamp)
	}
	reply, err := s.runRead(ctx, getScript, keys, req.AppName, 2, max(req.NumRecentEvents, 0), after, selection)
	if errors.Is(err, goredis.Nil) {
		return nil, fmt.Errorf("%s: %w: %q", op, sessions.ErrNotFound, req.SessionID)
	}
	if err != nil {
		return nil, classify(ctx, op, err)
	}
	sess, err := s.decodeSession(ctx, keys, req, reply)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return sess, nil
}

// decodeSession reads getScript's reply, whose keys were keys. An event
// or a state value that does not decode is left out and reported, so that
// the session stays readable and usable.
func (s *Service) decodeSession(ctx context.Context, keys []string, req sessions.GetRequest, reply []any) (*v1.Session, error) {
	if len(reply) != 5 {
		return nil, fmt.Errorf("unexpected reply of %d elements", len(reply))
	}
	version, err := parseVersion(reply[0])
	if err != nil {
		return nil, err
	}
	session, err := s.decodeState(ctx, keys[3], reply[1])
	if err != nil {
		return nil, err
	}
	app, err := s.decodeState(ctx, s.keys.appState(req.AppName), reply[2])
	if err != nil {
		return nil, err
	}
	user, err := s.decodeState(ctx, keys[5], reply[3])
	if err != nil {
		return nil, err
	}
	raw, _ := reply[4].([]any)
	events := make([]*v1.Event, 0, len(raw))
	for i, r := range raw {
		b, _ := r.(string)
		ev, err := decodeEvent(b)
		if err != nil {
			s.skipEvent(ctx, keys[1], i, len(raw), err)
			continue
		}
		if req.AfterTimestamp > 0 && ev.GetTimestamp() < req.AfterTimestamp {
			continue
		}
		events = append(events, ev)
	}
	return &v1.Session{
		Id: req.SessionID, AppName: req.AppName, UserId: req.UserID,
		State:          scope.Merge(app, user, session),
		Events:         events,
		LastUpdateTime: scope.Seconds(version),
	}, nil
}

// List implements [sessions.Service] in two round trips: the user's index,
// then the sessions' versions and state with the app's and user's state.
// Sessions come in creation order; index entries of sessions that expired
// are dropped on the way.
func (s *Service) List(ctx context.Context, appName, userID string) ([]*v1.Session, error) {
	const op = "sessions.list"
	index := s.keys.index(appName, userID)
	ids, err := s.client.ZRange(ctx, index, 0, -1).Result()
	if err != nil {
		return nil, classify(ctx, op, err)
	}
	return s.listed(ctx, appName, userID, ids)
}

// Count implements [sessions.Counter] in one round trip: the size of the
// user's index, which still holds sessions that expired until a List drops
// them.
func (s *Service) Count(ctx context.Context, appName, userID string) (int, error) {
	n, err := s.client.ZCard(ctx, s.keys.index(appName, userID)).Result()
	if err != nil {
		return 0, classify(ctx, "sessions.count", err)
	}
	return int(n), nil
}

// listed reads the sessions ids name, in their order, without events;
// sessions that expired are left out, and dropped from the index.
func (s *Service) listed(ctx context.Context, appName, userID string, ids []string) ([]*v1.Session, error) {
	const op = "sessions.list"
	if len(ids) == 0 {
		return nil, nil
	}
	pipe := s.client.Pipeline()
	// On a cluster app state is on another shard: read it alongside.
	var appState func() (map[string]string, error)
	if s.keys.cluster {
		appState = s.appStateAlongside(ctx, appName)
	} else {
		appCmd := pipe.HGetAll(ctx, s.keys.appState(appName))
		appState = appCmd.Result
	}
	userCmd := pipe.HGetAll(ctx, s.keys.userState(appName, userID))
	type listed struct {
		meta  *goredis.SliceCmd
		state *goredis.MapStringStringCmd
	}
	found := make([]listed, len(ids))
	for i, id := range ids {
		sk := s.keys.session(appName, userID, id)
		found[i] = listed{pipe.HMGet(ctx, sk.meta, "ver"), pipe.HGetAll(ctx, sk.state)}
	}
	_, err := pipe.Exec(ctx)
	appStored, appErr := appState()
	if err == nil {
		err = appErr
	}
	if err != nil {
		return nil, classify(ctx, op, err)
	}
	app := s.decodeStateStrings(ctx, s.keys.appState(appName), appStored)
	user := s.decodeStateStrings(ctx, s.keys.userState(appName, userID), userCmd.Val())
	out := make([]*v1.Session, 0, len(ids))
	var gone []any
	for i, id := range ids {
		ver := found[i].meta.Val()
		if len(ver) != 1 || ver[0] == nil {
			gone = append(gone, id)
			continue
		}
		version, err := parseVersion(ver[0])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		session := s.decodeStateStrings(ctx, s.keys.session(appName, userID, id).state, found[i].state.Val())
		out = append(out, &v1.Session{
			Id: id, AppName: appName, UserId: userID,
			State:          scope.Merge(app, user, session),
			LastUpdateTime: scope.Seconds(version),
		})
	}
	if len(gone) > 0 {
		s.pruneIndex(ctx, appName, userID, gone)
	}
	return out, nil
}

// pruneIndex drops index entries of sessions that expired. The script checks
// again that each session is gone, so a session re-created since the read
// keeps its entry. Best effort: a stale entry costs a lookup on the next List.
func (s *Service) pruneIndex(ctx context.Context, appName, userID string, ids []any) {
	keys := make([]string, 0, len(ids)+1)
	keys = append(keys, s.keys.index(appName, userID))
	for _, id := range ids {
		keys = append(keys, s.keys.session(appName, userID, id.(string)).meta)
	}
	if err := pruneScript.Run(ctx, s.client, keys, ids...).Err(); err != nil {
		s.log.DebugContext(ctx, "sessions: pruning the session index failed", "error", err)
	}
}
