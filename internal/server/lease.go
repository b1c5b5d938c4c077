package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
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

// releaseTimeout bounds the first attempt to release a lease, so that a
// stopping server does not wait on a store that does not answer.
const releaseTimeout = 5 * time.Second

// releaseLease gives a session's lease back. When the store cannot be
// reached, it keeps trying in the background for as long as the lease could
// last, so that a session does not stay busy after the store comes back.
func (s *Server) releaseLease(ctx context.Context, lease sessions.Lease) {
	ctx = context.WithoutCancel(ctx)
	first, cancel := context.WithTimeout(ctx, releaseTimeout)
	err := lease.Release(first)
	cancel()
	if err == nil {
		return
	}
	s.log.WarnContext(ctx, "release session lease; retrying", "err", err)
	go func() {
		deadline := time.Now().Add(s.leaseTTL)
		for wait := 100 * time.Millisecond; time.Now().Before(deadline); wait = min(2*wait, 2*time.Second) {
			time.Sleep(wait)
			if err := lease.Release(ctx); err == nil {
				return
			}
		}
	}()
}
