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

// flakyLease is a lease whose Release fails while fail is set. It counts
// the attempts.
type flakyLease struct {
	heldLease

	mu       sync.Mutex
	fail     bool
	calls    int
	released bool
}

func (l *flakyLease) Release(context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	if l.fail {
		return fmt.Errorf("flakyLease: %w", sessions.ErrUnavailable)
	}
	l.released = true
	return nil
}

func (l *flakyLease) setFail(fail bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.fail = fail
}

// state returns the attempts so far and whether one succeeded.
func (l *flakyLease) state() (calls int, released bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.calls, l.released
}

// TestReleaseLeaseRetries: a release the store refuses is retried in the
// background after 100 ms, then after pauses doubling up to 2 s, until it
// succeeds or the lease's ttl has passed; Stop makes a waiting retry try
// once more at once and waits for it; after Stop nothing is retried.
func TestReleaseLeaseRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// run drives the server after a first release failed at time 0.
		run       func(t *testing.T, s *Server, l *flakyLease)
		wantCalls int
		wantFreed bool
	}{
		{name: "until the store answers", wantCalls: 3, wantFreed: true,
			run: func(t *testing.T, s *Server, l *flakyLease) {
				time.Sleep(150 * time.Millisecond) // the retry at 100 ms fails
				l.setFail(false)
				time.Sleep(time.Minute) // the one at 300 ms succeeds
			}},
		{name: "until the ttl", wantCalls: 7, // at 0, 0.1, 0.3, 0.7, 1.5, 3.1 and 5.1 s
			run: func(t *testing.T, s *Server, l *flakyLease) { time.Sleep(time.Minute) }},
		{name: "stop ends the wait with a last attempt", wantCalls: 5, wantFreed: true,
			run: func(t *testing.T, s *Server, l *flakyLease) {
				time.Sleep(time.Second) // retries at 100, 300 and 700 ms fail
				l.setFail(false)
				stopNow(t, s)
				if _, freed := l.state(); !freed {
					t.Error("Stop returned before the last attempt")
				}
			}},
		{name: "stop ends a retry that keeps failing", wantCalls: 2,
			run: func(t *testing.T, s *Server, l *flakyLease) { stopNow(t, s) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				s := &Server{settings: settings{leaseTTL: DefaultLeaseTTL, log: slog.New(slog.DiscardHandler)}}
				l := &flakyLease{fail: true}
				s.releaseLease(t.Context(), l)
				tc.run(t, s, l)
				synctest.Wait()
				calls, freed := l.state()
				if calls != tc.wantCalls || freed != tc.wantFreed {
					t.Errorf("Release called %d times, released %v; want %d, %v", calls, freed, tc.wantCalls, tc.wantFreed)
				}
			})
		})
	}
}

// stopNow stops s and checks that Stop returned at once, without waiting
// out a retry's pause.
func stopNow(t *testing.T, s *Server) {
	t.Helper()
	start := time.Now()
	if err := s.Stop(t.Context()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if took := time.Since(start); took != 0 {
		t.Errorf("Stop took %v; want no wait", took)
	}
}

// TestReleaseLeaseAfterStop: once the server stopped, a release the store
// refuses is not retried, and Stop still returns at once.
func TestReleaseLeaseAfterStop(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := &Server{settings: settings{leaseTTL: DefaultLeaseTTL, log: slog.New(slog.DiscardHandler)}}
		stopNow(t, s)
		l := &flakyLease{fail: true}
		s.releaseLease(t.Context(), l)
		time.Sleep(time.Minute)
		synctest.Wait()
		if calls, _ := l.state(); calls != 1 {
			t.Errorf("Release called %d times; want 1", calls)
		}
		stopNow(t, s)
	})
}

// TestStopWaitsForReleaseRetries: Stop returns only once a retry's last
// attempt returned, or with ctx's error when ctx ends first.
func TestStopWaitsForReleaseRetries(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := &Server{settings: settings{leaseTTL: DefaultLeaseTTL, log: slog.New(slog.DiscardHandler)}}
		unblock := make(chan struct{})
		l := &blockingLease{unblock: unblock}
		s.releaseLease(t.Context(), l) // the first attempt fails
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if err := s.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Stop with the last attempt hanging = %v; want %v", err, context.DeadlineExceeded)
		}
		close(unblock)
		if err := s.Stop(t.Context()); err != nil {
			t.Errorf("Stop after the last attempt returned = %v", err)
		}
	})
}

// blockingLease fails its first Release; later ones block until unblock
// is closed, then fail.
type blockingLease struct {
	heldLease
	unblock chan struct{}
	mu      sync.Mutex
	calls   int
}

func (l *blockingLease) Release(context.Context) error {
	l.mu.Lock()
	l.calls++
	first := l.calls == 1
	l.mu.Unlock()
	if !first {
		<-l.unblock
	}
	return fmt.Errorf("blockingLease: %w", sessions.ErrUnavailable)
}
