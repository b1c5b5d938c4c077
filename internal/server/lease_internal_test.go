package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// busyStore is a session store whose leases are busy until freeAt (never
// when zero), or fail with err. Only Lease may be called.
type busyStore struct {
	sessions.Service
	freeAt time.Time
	err    error

	mu    sync.Mutex
	calls int
}

func (b *busyStore) Lease(context.Context, string, string, string, string, time.Duration) (sessions.Lease, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls++
	switch {
	case b.err != nil:
		return nil, b.err
	case !b.freeAt.IsZero() && !time.Now().Before(b.freeAt):
		return heldLease{}, nil
	}
	return nil, fmt.Errorf("busyStore: %w", sessions.ErrBusy)
}

type heldLease struct{}

func (heldLease) Release(context.Context) error { return nil }
func (heldLease) Lost() <-chan struct{}         { return nil }
func (heldLease) Err() error                    { return nil }

// TestLeaseSessionWaitsForABusySession: a busy lease is polled until it is
// free or the wait is over, never past the caller's context, and other
// errors are not retried. The bounds leave room for a loaded machine.
func TestLeaseSessionWaitsForABusySession(t *testing.T) {
	t.Parallel()
	const slack = time.Second
	tests := []struct {
		name string
		// freeAfter is when the lease frees up; negative: never.
		freeAfter time.Duration
		storeErr  error
		wait      time.Duration
		// cancelAfter ends the caller's context; zero: never.
		cancelAfter time.Duration
		wantErr     error
		// The call takes at least minTook, and less than minTook+slack.
		minTook   time.Duration
		wantCalls func(int) bool
	}{
		{name: "free at once", freeAfter: 0, wait: 2 * time.Second,
			wantCalls: func(n int) bool { return n == 1 }},
		{name: "freed during the wait", freeAfter: 150 * time.Millisecond, wait: 5 * time.Second,
			minTook: 150 * time.Millisecond, wantCalls: func(n int) bool { return n > 1 }},
		{name: "busy past the wait", freeAfter: -1, wait: 300 * time.Millisecond, wantErr: sessions.ErrBusy,
			minTook: 300 * time.Millisecond, wantCalls: func(n int) bool { return n >= 3 && n <= 30 }},
		{name: "no wait", freeAfter: -1, wait: 0, wantErr: sessions.ErrBusy,
			wantCalls: func(n int) bool { return n == 1 }},
		{name: "caller gives up", freeAfter: -1, wait: time.Minute, cancelAfter: 100 * time.Millisecond,
			wantErr: sessions.ErrBusy, minTook: 100 * time.Millisecond, wantCalls: func(n int) bool { return n > 1 }},
		{name: "store unavailable", storeErr: fmt.Errorf("x: %w", sessions.ErrUnavailable), wait: time.Minute,
			wantErr: sessions.ErrUnavailable, wantCalls: func(n int) bool { return n == 1 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// In a bubble the polls and the waits pass on a fake clock.
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				store := &busyStore{err: tc.storeErr}
				if tc.freeAfter >= 0 {
					store.freeAt = start.Add(tc.freeAfter)
				}
				s := &Server{sessions: store, owner: "test",
					settings: settings{leaseTTL: DefaultLeaseTTL, busyWait: tc.wait, log: slog.New(slog.DiscardHandler)}}
				ctx := t.Context()
				if tc.cancelAfter > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tc.cancelAfter)
					defer cancel()
				}
				lease, err := s.leaseSession(ctx, "app", "user", "session")
				took := time.Since(start)
				switch {
				case tc.wantErr == nil && (err != nil || lease == nil):
					t.Errorf("leaseSession = %v, %v; want a lease", lease, err)
				case tc.wantErr != nil && !errors.Is(err, tc.wantErr):
					t.Errorf("leaseSession error = %v, want %v", err, tc.wantErr)
				}
				if took < tc.minTook || took >= tc.minTook+slack {
					t.Errorf("leaseSession took %v, want from %v to %v", took, tc.minTook, tc.minTook+slack)
				}
				store.mu.Lock()
				defer store.mu.Unlock()
				if !tc.wantCalls(store.calls) {
					t.Errorf("the store was asked %d times", store.calls)
				}
			})
		})
	}
}
