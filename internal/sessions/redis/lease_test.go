package redis

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// failingScripts fails every script while on, as a server that is
// restarting or failing over answers (LOADING), without sending it.
type failingScripts struct{ on atomic.Bool }

func (h *failingScripts) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (h *failingScripts) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		if name := cmd.Name(); h.on.Load() && (name == "evalsha" || name == "eval") {
			err := replyError("LOADING Redis is loading the dataset in memory")
			cmd.SetErr(err)
			return err
		}
		return next(ctx, cmd)
	}
}

func (h *failingScripts) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return next
}

// lostWithin waits up to d for l to be lost and returns when it was, or
// the zero time.
func lostWithin(l sessions.Lease, d time.Duration) time.Time {
	select {
	case <-l.Lost():
		return time.Now()
	case <-time.After(d):
		return time.Time{}
	}
}

// TestLeaseTakenOverIsLost: a renewal that finds another owner reports the
// lease lost as busy, within one renewal interval.
func TestLeaseTakenOverIsLost(t *testing.T) {
	t.Parallel()
	const ttl = time.Second
	svc := newTestService(t, Options{})
	ctx := t.Context()
	l, err := svc.Lease(ctx, "app", "u", "s", "first", ttl)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Release(ctx) }()
	if err := svc.client.Set(ctx, svc.keys.session("app", "u", "s").lease, "second", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if lostWithin(l, 10*ttl).IsZero() {
		t.Fatalf("lease not lost %v after another owner took it", 10*ttl)
	}
	if err := l.Err(); !errors.Is(err, sessions.ErrLeaseLost) || !errors.Is(err, sessions.ErrBusy) {
		t.Errorf("Err = %v, want ErrLeaseLost and ErrBusy", err)
	}
}

// TestLeaseSurvivesShortOutage: renewals that fail for less than the ttl
// minus one renewal interval are retried until one succeeds; the lease is
// neither lost nor free for another owner.
func TestLeaseSurvivesShortOutage(t *testing.T) {
	t.Parallel()
	const ttl = 3 * time.Second
	svc := newTestService(t, Options{})
	hook := &failingScripts{}
	svc.client.AddHook(hook)
	ctx := t.Context()
	l, err := svc.Lease(ctx, "app", "u", "s", "first", ttl)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Release(ctx) }()
	// Half the ttl, from just before the first renewal: the lease would
	// run out soon after its end unless a retry renewed it.
	time.Sleep(ttl/renewalsPerTTL - ttl/30)
	hook.on.Store(true)
	time.Sleep(ttl / 2)
	hook.on.Store(false)
	if at := lostWithin(l, ttl); !at.IsZero() {
		t.Fatalf("lease lost after an outage of %v: %v", ttl/2, l.Err())
	}
	if _, err := svc.Lease(ctx, "app", "u", "s", "second", ttl); !errors.Is(err, sessions.ErrBusy) {
		t.Errorf("Lease by another owner after the outage: %v, want ErrBusy", err)
	}
}

// TestLeaseNotRenewedInTimeIsLost: when no renewal succeeds before the ttl
// runs out, the lease is lost as unavailable, not before the moment it
// could expire and soon after.
func TestLeaseNotRenewedInTimeIsLost(t *testing.T) {
	t.Parallel()
	const ttl = time.Second
	svc := newTestService(t, Options{})
	hook := &failingScripts{}
	svc.client.AddHook(hook)
	ctx := t.Context()
	sent := time.Now()
	l, err := svc.Lease(ctx, "app", "u", "s", "first", ttl)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Release(ctx) }()
	hook.on.Store(true)
	at := lostWithin(l, 10*ttl)
	if at.IsZero() {
		t.Fatalf("lease not lost %v into an outage", 10*ttl)
	}
	if d := at.Sub(sent); d < ttl {
		t.Errorf("lease lost %v after it was taken, before its ttl of %v", d, ttl)
	}
	if err := l.Err(); !errors.Is(err, sessions.ErrLeaseLost) || !errors.Is(err, sessions.ErrUnavailable) {
		t.Errorf("Err = %v, want ErrLeaseLost and ErrUnavailable", err)
	}
}
