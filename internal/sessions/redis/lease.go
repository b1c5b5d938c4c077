package redis

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Lease implements [sessions.Service]. The lease is a key holding owner with
// a PX expiry of ttl. While it is held, a goroutine renews it about every
// ttl/3 (only while owner still holds it) until Release, until ctx ends or
// until the Service closes; after that it expires on its own, which is also
// what happens when the holder's replica dies.
func (s *Service) Lease(ctx context.Context, appName, userID, sessionID, owner string, ttl time.Duration) (sessions.Lease, error) {
	const op = "sessions.lease"
	if owner == "" || ttl <= 0 {
		return nil, errors.New(op + ": owner and a positive ttl are required")
	}
	ttlMS := max(ttl.Milliseconds(), 1)
	key := s.keys.session(appName, userID, sessionID).lease
	sent := time.Now()
	held, err := acquireScript.Run(ctx, s.client, []string{key}, owner, ttlMS).Int()
	if err != nil {
		return nil, classify(ctx, op, err)
	}
	if held == 0 {
		return nil, fmt.Errorf("%s: %w", op, sessions.ErrBusy)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	l := &lease{svc: s, key: key, owner: owner, done: make(chan struct{})}
	renewCtx, cancel := context.WithCancel(ctx)
	l.cancel = cancel
	if s.closed {
		cancel()
		close(l.done)
		return l, nil
	}
	s.renewal.Add(1)
	go func() {
		defer s.renewal.Done()
		defer close(l.done)
		l.keepAlive(renewCtx, sent, ttl, ttlMS)
	}()
	return l, nil
}

// lease is a held Redis lease.
type lease struct {
	svc    *Service
	key    string
	owner  string
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	released bool
}

// keepAlive renews the lease until ctx ends, the Service closes or the lease
// is found lost. sent is when the acquiring script was sent.
//
// The server set the expiry no earlier than a script was sent, so renewals
// are timed from the sending of the last confirmed one, not from its reply: a
// slow reply (a loaded server or process) brings the next renewal forward
// instead of letting the lease run out. An attempt may take until the lease
// would expire; a failed one is retried every ttl/10, so the lease survives
// outages of up to about two thirds of its ttl.
func (l *lease) keepAlive(ctx context.Context, sent time.Time, ttl time.Duration, ttlMS int64) {
	interval, retry := ttl/3, max(ttl/10, time.Millisecond)
	expires := sent.Add(ttl)
	timer := time.NewTimer(time.Until(sent.Add(interval)))
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.svc.stop:
			return
		case <-timer.C:
		}
		sent := time.Now()
		rctx, cancel := context.WithDeadline(ctx, latest(expires, sent.Add(retry)))
		ok, err := renewScript.Run(rctx, l.svc.client, []string{l.key}, l.owner, ttlMS).Int()
		cancel()
		switch {
		case err == nil && ok == 0:
			l.svc.log.WarnContext(ctx, "sessions: lease lost", "key", l.key)
			return
		case err == nil:
			expires = sent.Add(ttl)
			timer.Reset(time.Until(sent.Add(interval)))
		case ctx.Err() != nil:
			return
		default:
			l.svc.log.WarnContext(ctx, "sessions: lease renewal failed", "key", l.key, "error", err)
			timer.Reset(retry)
		}
	}
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Release implements [sessions.Lease]. It stops the renewal and deletes the
// lease if its owner still holds it. After a failure to reach Redis it may be
// called again; once it succeeded, further calls return nil.
func (l *lease) Release(ctx context.Context) error {
	l.cancel()
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return nil
	}
	if err := releaseScript.Run(ctx, l.svc.client, []string{l.key}, l.owner).Err(); err != nil {
		return classify(ctx, "sessions.release", err)
	}
	l.released = true
	return nil
}
