package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Polling of a busy session's lease: the first retry after firstBusyPoll,
// each later one after twice the previous pause, at most maxBusyPoll, each
// pause jittered down by up to half so that waiting callers spread out.
const (
	firstBusyPoll = 20 * time.Millisecond
	maxBusyPoll   = 200 * time.Millisecond
)

// leaseSession takes a session's lease for a new owner. While another
// invocation holds it, it polls for up to the server's busy wait, so that a
// call that follows an ending invocation (a client that gave up and
// retries at once) runs instead of failing; past the wait, or when ctx
// ends first, it fails with the store's [sessions.ErrBusy].
func (s *Server) leaseSession(ctx context.Context, app, user, session string) (sessions.Lease, error) {
	owner := s.owner + "/" + runtime.NewEventID()
	deadline := time.Now().Add(s.busyWait)
	pause := firstBusyPoll
	for {
		lease, err := s.sessions.Lease(ctx, app, user, session, owner, s.leaseTTL)
		if err == nil {
			return lease, nil
		}
		left := time.Until(deadline)
		if !errors.Is(err, sessions.ErrBusy) || left <= 0 {
			return nil, fmt.Errorf("server: lease session: %w", err)
		}
		wait := time.NewTimer(min(pause-rand.N(pause/2), left))
		select {
		case <-ctx.Done():
			wait.Stop()
			return nil, fmt.Errorf("server: lease session: %w", err)
		case <-wait.C:
		}
		pause = min(2*pause, maxBusyPoll)
	}
}

// watchLease ends the invocation whose context is ctx, through cancel, once
// the store reports its lease lost, with the lease's error (wrapping
// [sessions.ErrLeaseLost]) as the cause: another invocation may hold the
// session from then on, so this one must not go on working, nor writing,
// as if it did.
func watchLease(ctx context.Context, lease sessions.Lease, cancel func(error)) {
	lost := lease.Lost()
	if lost == nil {
		return
	}
	go func() {
		select {
		case <-lost:
			cancel(lease.Err())
		case <-ctx.Done():
		}
	}()
}

// releaseTimeout bounds the first attempt to release a lease, and the last
// one of a stopping server, so that a stopping server does not wait on a
// store that does not answer.
const releaseTimeout = 5 * time.Second

// releaseLease gives a session's lease back. When the store cannot be
// reached, it keeps trying in the background for as long as the lease could
// last, so that a session does not stay busy after the store comes back;
// [Server.Stop] ends those retries, each after one last attempt.
func (s *Server) releaseLease(ctx context.Context, lease sessions.Lease) {
	ctx = context.WithoutCancel(ctx)
	err := releaseWithin(ctx, lease)
	if err == nil {
		return
	}
	if !s.releases.start(func(stop <-chan struct{}) { s.retryRelease(ctx, lease, stop) }) {
		s.log.WarnContext(ctx, "release session lease; the server stopped, so it expires on its own", "err", err)
		return
	}
	s.log.WarnContext(ctx, "release session lease; retrying", "err", err)
}

// releaseWithin makes one attempt to release lease, bounded by
// releaseTimeout.
func releaseWithin(ctx context.Context, lease sessions.Lease) error {
	ctx, cancel := context.WithTimeout(ctx, releaseTimeout)
	defer cancel()
	return lease.Release(ctx)
}

// retryRelease retries releasing lease, with growing pauses, until it
// succeeds or the lease could have expired; once stop is closed it makes
// one last attempt at once and returns.
func (s *Server) retryRelease(ctx context.Context, lease sessions.Lease, stop <-chan struct{}) {
	deadline := time.Now().Add(s.leaseTTL)
	for wait := 100 * time.Millisecond; time.Now().Before(deadline); wait = min(2*wait, 2*time.Second) {
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-stop:
			timer.Stop()
			_ = releaseWithin(ctx, lease)
			return
		}
		if err := lease.Release(ctx); err == nil {
			return
		}
	}
}

// releasers owns the goroutines that retry releasing leases, so that a
// stopping server ends them and waits for them. Its zero value is ready
// to use; it is safe for concurrent use.
type releasers struct {
	mu      sync.Mutex
	stopped bool
	stop    chan struct{} // closed once stopped; nil before the first use
	wg      sync.WaitGroup
}

// stopChan returns stop, making it if needed. Call it with mu held.
func (r *releasers) stopChan() chan struct{} {
	if r.stop == nil {
		r.stop = make(chan struct{})
	}
	return r.stop
}

// start runs retry in a goroutine, passing it a channel closed when the
// server stops. Once stopped it runs nothing and reports false.
func (r *releasers) start(retry func(stop <-chan struct{})) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return false
	}
	stop := r.stopChan()
	r.wg.Go(func() { retry(stop) })
	return true
}

// close tells every retry to make its last attempt and waits, until ctx
// ends, for them to return. No retry starts after it.
func (r *releasers) close(ctx context.Context) error {
	r.mu.Lock()
	if !r.stopped {
		r.stopped = true
		close(r.stopChan())
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
