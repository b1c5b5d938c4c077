package server

import (
	"context"
	"fmt"
	"sync"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// errShuttingDown refuses invocations once the server drains, and ends those
// that [Server.Stop] cancels.
var errShuttingDown = &runtime.Error{Code: runtime.CodeUnavailable, Reason: v1.ErrorReason_SHUTTING_DOWN.String(), Message: "server is shutting down"}

// tracker knows the running invocations, so that a stopping server can end
// them and give their leases back before the store closes.
type tracker struct {
	mu       sync.Mutex
	draining bool
	active   map[*invocation]context.CancelCauseFunc
	idle     chan struct{} // closed while no invocation runs; nil before the first
	// maxPerUser caps the invocations of one user running at once; 0 means
	// no cap. perUser counts them, without zero entries.
	maxPerUser int
	perUser    map[userKey]int
}

// userKey names a user: ids carry no control characters, so that two
// users never share a key.
type userKey struct{ app, user string }

// errUserInvocationLimit refuses an invocation of a user who has
// Config.MaxConcurrentInvocationsPerUser running.
func errUserInvocationLimit(limit int) error {
	return &runtime.Error{Code: runtime.CodeResourceExhausted, Reason: v1.ErrorReason_USER_INVOCATION_LIMIT.String(),
		Message: fmt.Sprintf("too many invocations running for this user (limit %d); retry when one ends", limit)}
}

// reserve counts an invocation of user k, failing when k has maxPerUser
// running. Every successful reserve is matched by one unreserve.
func (t *tracker) reserve(k userKey) error {
	if t.maxPerUser <= 0 {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.perUser[k] >= t.maxPerUser {
		return errUserInvocationLimit(t.maxPerUser)
	}
	if t.perUser == nil {
		t.perUser = make(map[userKey]int)
	}
	t.perUser[k]++
	return nil
}

// unreserve gives back a slot that reserve counted.
func (t *tracker) unreserve(k userKey) {
	if t.maxPerUser <= 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := t.perUser[k]; n > 1 {
		t.perUser[k] = n - 1
	} else {
		delete(t.perUser, k)
	}
}

// add registers an invocation and its cancel, failing once draining began.
func (t *tracker) add(i *invocation, cancel context.CancelCauseFunc) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.draining {
		return errShuttingDown
	}
	if t.active == nil {
		t.active = make(map[*invocation]context.CancelCauseFunc)
	}
	if len(t.active) == 0 {
		t.idle = make(chan struct{})
	}
	t.active[i] = cancel
	return nil
}

// remove forgets an invocation that ended and frees its context.
func (t *tracker) remove(i *invocation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cancel, ok := t.active[i]
	if !ok {
		return
	}
	cancel(nil)
	delete(t.active, i)
	if len(t.active) == 0 {
		close(t.idle)
	}
}

// refuse reports whether new invocations are refused.
func (t *tracker) refuse() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.draining {
		return errShuttingDown
	}
	return nil
}

// wait blocks until no invocation runs or ctx ends.
func (t *tracker) wait(ctx context.Context) error {
	t.mu.Lock()
	idle := t.idle
	if len(t.active) == 0 {
		idle = nil
	}
	t.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Drain makes the server refuse new invocations with UNAVAILABLE ("server
// is shutting down"; HTTP 503) while those running go on. It cannot be
// undone. Other requests are still served.
func (s *Server) Drain() {
	s.invocations.mu.Lock()
	s.invocations.draining = true
	s.invocations.mu.Unlock()
}

// Wait blocks until the running invocations finish or ctx ends.
func (s *Server) Wait(ctx context.Context) error {
	return s.invocations.wait(ctx)
}

// Stop drains the server, cancels every running invocation (its client gets
// UNAVAILABLE) and waits, until ctx ends, for each to end and release its
// session's lease, so that other replicas can run on those sessions at once.
// Releases the store refused earlier, and retries in the background, then
// make their last attempt at once, and Stop waits for them too; later ones
// are not retried. Call it before closing the session store.
func (s *Server) Stop(ctx context.Context) error {
	s.Drain()
	s.invocations.mu.Lock()
	for _, cancel := range s.invocations.active {
		cancel(errShuttingDown)
	}
	s.invocations.mu.Unlock()
	err := s.invocations.wait(ctx)
	if rerr := s.releases.close(ctx); err == nil {
		err = rerr
	}
	return err
}

// running returns how many invocations run.
func (t *tracker) running() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.active)
}
