package redis

import (
	"context"

	goredis "github.com/redis/go-redis/v9"

	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
)

// On Redis Cluster, app state is one hash in a slot of its own, on one
// shard, and every read of any of the app's sessions merges it in. So that
// a shard that fails over does not fail the reads of every session, app
// state is read from a replica while its primary does not answer: with
// writes waiting for a replica (the default), every acknowledged write of
// app state is there. Writes of app: keys need the primary and fail with
// [sessions.ErrUnavailable] until Redis has promoted the replica.

// writeAppState writes entries to the app's state hash on a cluster, where
// it is in a slot of its own, with the app's backlog of earlier writes that
// failed (see appbacklog.go), and reads the hash back into *read when read
// is not nil: one round trip. Entries whose write fails join the backlog.
// With nothing to write it only reads, and reads from a replica when the
// primary does not answer.
func (s *Service) writeAppState(ctx context.Context, app string, entries []scope.Entry, read *map[string]string) error {
	key := s.keys.appState(app)
	fresh, err := encodeEntries(entries)
	if err != nil {
		return err
	}
	pairs := s.backlog.with(app, fresh)
	if len(pairs) == 0 {
		if read == nil {
			return nil
		}
		*read, err = s.readAppState(ctx, app)
		return err
	}
	var got *goredis.MapStringStringCmd
	build := func(p goredis.Pipeliner) {
		p.HSet(ctx, key, pairs...)
		if read != nil {
			got = p.HGetAll(ctx, key)
		}
	}
	if s.wait.replicas > 0 {
		err = s.onPrimary(ctx, key, build)
	} else {
		_, err = s.client.Pipelined(ctx, func(p goredis.Pipeliner) error {
			build(p)
			return nil
		})
	}
	if err != nil {
		s.keepAppWrite(ctx, app, fresh)
		return err
	}
	s.backlog.written(app, pairs)
	if read != nil {
		*read = got.Val()
	}
	return nil
}

// readAppState reads the app's state hash on a cluster: from its primary,
// or from a replica while the primary does not answer. The error is the
// primary's when the replica fails too.
func (s *Service) readAppState(ctx context.Context, app string) (map[string]string, error) {
	key := s.keys.appState(app)
	state, err := s.client.HGetAll(ctx, key).Result()
	if err == nil || !unreachable(ctx, err) {
		return state, err
	}
	node, rerr := s.topo.replica(ctx, key)
	if rerr != nil {
		return nil, err
	}
	var cmd *goredis.MapStringStringCmd
	// READONLY lets the connection read a replica's slots; a primary
	// ignores it.
	if _, rerr := node.Pipelined(ctx, func(p goredis.Pipeliner) error {
		p.ReadOnly(ctx)
		cmd = p.HGetAll(ctx, key)
		return nil
	}); rerr != nil {
		return nil, err
	}
	return cmd.Val(), nil
}

// appStateAlongside starts reading the app's state on a cluster and
// returns the function that waits for it; call it on every path.
func (s *Service) appStateAlongside(ctx context.Context, app string) func() (map[string]string, error) {
	type result struct {
		state map[string]string
		err   error
	}
	done := make(chan result, 1)
	go func() {
		state, err := s.readAppState(ctx, app)
		done <- result{state, err}
	}()
	return func() (map[string]string, error) {
		r := <-done
		return r.state, r.err
	}
}

// runRead runs a reading script whose reply holds, at appAt, the pairs of
// the app state key it was given. On a cluster that key is the empty
// stand-in: the app's state is read concurrently and put in its place.
func (s *Service) runRead(ctx context.Context, script *goredis.Script, keys []string, app string, appAt int, args ...any) ([]any, error) {
	if !s.keys.cluster {
		return script.Run(ctx, s.client, keys, args...).Slice()
	}
	appState := s.appStateAlongside(ctx, app)
	reply, err := script.Run(ctx, s.client, keys, args...).Slice()
	state, appErr := appState()
	if err != nil {
		return nil, err
	}
	if appErr != nil {
		return nil, appErr
	}
	if len(reply) > appAt {
		reply[appAt] = pairsOf(state)
	}
	return reply, nil
}

// pairsOf turns a hash into the field/value list HGETALL gives a script.
func pairsOf(m map[string]string) []any {
	out := make([]any, 0, 2*len(m))
	for k, v := range m {
		out = append(out, k, v)
	}
	return out
}
