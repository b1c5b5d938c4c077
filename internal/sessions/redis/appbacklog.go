package redis

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
)

// On a cluster an append stores its event and the session's and user's
// state in one script, and the app's state in a second round trip to
// another shard (see appstate.go). When that second write fails (its shard
// is failing over, or has no replica to confirm it), the event is stored
// but the app's state lacks its delta. The append fails, and a retry of
// it writes the app keys again; but a caller may never retry. So the
// Service keeps such writes in a backlog and writes them again in the
// background until they land, and every later app write of the same app
// carries the backlog along, so that an older value never lands over a
// newer one written by this process. The backlog lives in the process: a
// process that dies with writes in it leaves them unwritten.

// Backlog retry bounds.
const (
	backlogFirstRetry = 100 * time.Millisecond
	backlogMaxRetry   = 2 * time.Second
	backlogWriteTime  = 2 * time.Second
)

// appBacklog holds, per app, the app state fields whose write failed after
// their event was stored, with the encoded value to write (the latest
// wins). It is safe for concurrent use.
type appBacklog struct {
	mu       sync.Mutex
	pending  map[string]map[string]string // app → field → encoded value
	flushing bool
}

// with returns pairs (field, value, ...) preceded by the app's pending
// fields that pairs does not set: what a write of pairs must write.
func (b *appBacklog) with(app string, pairs []any) []any {
	b.mu.Lock()
	defer b.mu.Unlock()
	pending := b.pending[app]
	if len(pending) == 0 {
		return pairs
	}
	set := make(map[string]bool, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		set[pairs[i].(string)] = true
	}
	out := make([]any, 0, 2*len(pending)+len(pairs))
	for _, f := range slices.Sorted(maps.Keys(pending)) {
		if !set[f] {
			out = append(out, f, pending[f])
		}
	}
	return append(out, pairs...)
}

// add keeps pairs for a later write, over older values of the same fields,
// and reports whether a flusher must be started.
func (b *appBacklog) add(app string, pairs []any) (start bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pending == nil {
		b.pending = map[string]map[string]string{}
	}
	p := b.pending[app]
	if p == nil {
		p = map[string]string{}
		b.pending[app] = p
	}
	for i := 0; i < len(pairs); i += 2 {
		p[pairs[i].(string)] = encodedString(pairs[i+1])
	}
	if b.flushing {
		return false
	}
	b.flushing = true
	return true
}

// written drops the pending fields that a successful write of pairs set
// to the value still pending.
func (b *appBacklog) written(app string, pairs []any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.pending[app]
	if len(p) == 0 {
		return
	}
	for i := 0; i < len(pairs); i += 2 {
		f := pairs[i].(string)
		if v, ok := p[f]; ok && v == encodedString(pairs[i+1]) {
			delete(p, f)
		}
	}
	if len(p) == 0 {
		delete(b.pending, app)
	}
}

// apps returns the apps with pending writes; with none it marks the
// flusher stopped and returns nil.
func (b *appBacklog) apps() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pending) == 0 {
		b.flushing = false
		return nil
	}
	return slices.Sorted(maps.Keys(b.pending))
}

// size returns how many fields wait to be written, for tests.
func (b *appBacklog) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, p := range b.pending {
		n += len(p)
	}
	return n
}

func encodedString(v any) string {
	switch v := v.(type) {
	case []byte:
		return string(v)
	case string:
		return v
	}
	return ""
}

// keepAppEntries puts app state entries in the backlog, for an event that
// was stored without its app write being tried.
func (s *Service) keepAppEntries(ctx context.Context, app string, entries []scope.Entry) {
	pairs, err := encodeEntries(entries)
	if err != nil {
		return
	}
	s.keepAppWrite(ctx, app, pairs)
}

// keepAppWrite puts an app write that failed in the backlog and starts
// the flusher when none runs.
func (s *Service) keepAppWrite(ctx context.Context, app string, pairs []any) {
	if len(pairs) == 0 || !s.backlog.add(app, pairs) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.renewal.Add(1)
	go func() {
		defer s.renewal.Done()
		s.flushAppBacklog(context.WithoutCancel(ctx))
	}()
}

// flushAppBacklog writes the backlog until it is empty or the Service
// closes, backing off while the writes fail.
func (s *Service) flushAppBacklog(ctx context.Context) {
	wait := backlogFirstRetry
	for {
		select {
		case <-s.stop:
			return
		case <-time.After(wait):
		}
		apps := s.backlog.apps()
		if apps == nil {
			return
		}
		failed := false
		for _, app := range apps {
			wctx, cancel := context.WithTimeout(ctx, backlogWriteTime)
			err := s.writeAppState(wctx, app, nil, nil)
			cancel()
			if err != nil {
				failed = true
				s.log.WarnContext(ctx, "sessions: app state write still failing; retrying", "app", app, "error", err)
			}
		}
		if failed {
			wait = min(2*wait, backlogMaxRetry)
		} else {
			wait = backlogFirstRetry
		}
	}
}
