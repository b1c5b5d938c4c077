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
// a PX expiry of ttl. While it is held, a goroutine renews it every ttl/5
// (only while owner still holds it) until Release, until ctx ends or until
// the Service closes; after that it expires on its own, which is also what
// happens when the holder's replica dies. When a renewal finds another
// owner, or renewals keep failing until the ttl has run out, the lease is
// lost: [sessions.Lease.Lost] is closed and renewal stops.
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
	l := &lease{svc: s, key: key, owner: owner, done: make(chan struct{}), lost: make(chan struct{})}
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

// Renewal schedule of a lease: renewed every ttl/renewalsPerTTL, a failed
// renewal retried every ttl/retriesPerTTL. A lease thus survives a store
// outage of up to about four fifths of its ttl (4 s of a 5 s lease) at the
// cost of one round trip per running invocation every fifth of its ttl.
const (
	renewalsPerTTL = 5
	retriesPerTTL  = 10
)

// lease is a held Redis lease.
type lease struct {
	svc    *Service
	key    string
	owner  string
	cancel context.CancelFunc
	done   chan struct{}
	// lost is closed, with err set, when the lease is lost.
	lost chan struct{}

	mu       sync.Mutex
	released bool
	err      error
}

// keepAlive renews the lease until ctx ends, the Service closes or the lease
// is lost. sent is when the acquiring script was sent.
//
// The server set the expiry no earlier than a script was sent, so renewals
// are timed from the sending of the last confirmed one, not from its reply: a
// slow reply (a loaded server or process) brings the next renewal forward
// instead of letting the lease run out. An attempt may take until the lease
// would expire; a failed one is retried every ttl/retriesPerTTL until the
// lease would have expired, and then the lease is lost: from that moment
// another owner may hold it, so its holder must stop.
func (l *lease) keepAlive(ctx context.Context, sent time.Time, ttl time.Duration, ttlMS int64) {
	interval, retry := ttl/renewalsPerTTL, max(ttl/retriesPerTTL, time.Millisecond)
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
			l.lose(fmt.Errorf("sessions.lease: %w: taken by another owner: %w", sessions.ErrLeaseLost, sessions.ErrBusy))
			return
		case err == nil:
			expires = sent.Add(ttl)
			timer.Reset(time.Until(sent.Add(interval)))
		case ctx.Err() != nil:
			return
		case !time.Now().Before(expires):
			l.svc.log.WarnContext(ctx, "sessions: lease lost: not renewed within its ttl", "key", l.key, "ttl", ttl, "error", err)
			l.lose(fmt.Errorf("sessions.lease: %w: not renewed within its ttl of %s: %w (%v)", sessions.ErrLeaseLost, ttl, sessions.ErrUnavailable, err))
			return
		default:
			l.svc.log.WarnContext(ctx, "sessions: lease renewal failed", "key", l.key, "error", err)
			timer.Reset(min(retry, time.Until(expires)))
		}
	}
}

// lose records why the lease was lost and closes lost.
func (l *lease) lose(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = err
	close(l.lost)
}

// Lost implements [sessions.Lease].
func (l *lease) Lost() <-chan struct{} { return l.lost }

// Err implements [sessions.Lease].
func (l *lease) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
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
