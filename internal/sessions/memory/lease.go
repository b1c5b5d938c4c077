package memory

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// leaseTable holds the invocation leases of all sessions.
type leaseTable struct {
	mu   sync.Mutex
	held map[string]*leaseEntry
}

// leaseEntry is a held lease. While its context lives the lease does not
// expire, which is what renewal achieves in a shared store; once the context
// ends, it expires ttl later unless released first.
type leaseEntry struct {
	owner   string
	expires time.Time // zero while the holder's context lives
}

// Lease implements [sessions.Service]. The same owner may take a lease it
// already holds; that renews it.
func (s *Service) Lease(ctx context.Context, appName, userID, sessionID, owner string, ttl time.Duration) (sessions.Lease, error) {
	const op = "sessions.lease"
	if owner == "" || ttl <= 0 {
		return nil, errors.New(op + ": owner and a positive ttl are required")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	key := appName + "\x00" + userID + "\x00" + sessionID
	t := &s.leases
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.held[key]; e != nil && e.owner != owner && (e.expires.IsZero() || s.now().Before(e.expires)) {
		return nil, fmt.Errorf("%s: %w", op, sessions.ErrBusy)
	}
	e := &leaseEntry{owner: owner}
	t.held[key] = e
	l := &lease{table: t, key: key, owner: owner}
	l.stop = context.AfterFunc(ctx, func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.held[key] == e {
			e.expires = s.now().Add(ttl)
		}
	})
	return l, nil
}

// lease is a held memory lease.
type lease struct {
	table *leaseTable
	key   string
	owner string
	stop  func() bool
	once  sync.Once
}

// Lost implements [sessions.Lease]: a memory lease does not expire while
// its holder's context lives, so it is never lost.
func (l *lease) Lost() <-chan struct{} { return nil }

// Err implements [sessions.Lease]; it is always nil.
func (l *lease) Err() error { return nil }

// Release implements [sessions.Lease]: it removes the lease if its owner
// still holds it.
func (l *lease) Release(context.Context) error {
	l.once.Do(func() {
		l.stop()
		l.table.mu.Lock()
		defer l.table.mu.Unlock()
		if e := l.table.held[l.key]; e != nil && e.owner == l.owner {
			delete(l.table.held, l.key)
		}
	})
	return nil
}
