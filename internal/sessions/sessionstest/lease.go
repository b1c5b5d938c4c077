package sessionstest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// leaseTTL is short so that expiry tests stay fast, and long enough that a
// renewal at a third of it is not missed under the race detector.
const leaseTTL = time.Second

var leaseCases = []contractCase{
	{"lease_is_exclusive_until_released", func(t *testing.T, svc sessions.Service) {
		a := takeLease(t.Context(), t, svc, "s1", "owner-a")
		if _, err := svc.Lease(t.Context(), "app", "u1", "s1", "owner-b", leaseTTL); !errors.Is(err, sessions.ErrBusy) {
			t.Fatalf("second owner's Lease error = %v, want ErrBusy", err)
		}
		// The holder may take it again, and other sessions are independent.
		again := takeLease(t.Context(), t, svc, "s1", "owner-a")
		takeLease(t.Context(), t, svc, "s2", "owner-b")

		if err := a.Release(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := again.Release(t.Context()); err != nil {
			t.Fatal(err)
		}
		b := takeLease(t.Context(), t, svc, "s1", "owner-b")
		// A late second Release of a's lease leaves b's alone.
		if err := a.Release(t.Context()); err != nil {
			t.Fatalf("second Release: %v", err)
		}
		if _, err := svc.Lease(t.Context(), "app", "u1", "s1", "owner-c", leaseTTL); !errors.Is(err, sessions.ErrBusy) {
			t.Fatalf("Lease while b holds it: error = %v, want ErrBusy", err)
		}
		if err := b.Release(t.Context()); err != nil {
			t.Fatal(err)
		}
	}},
	{"lease_is_kept_alive_while_held", func(t *testing.T, svc sessions.Service) {
		held := takeLease(t.Context(), t, svc, "s1", "owner-a")
		time.Sleep(4 * leaseTTL)
		if _, err := svc.Lease(t.Context(), "app", "u1", "s1", "owner-b", leaseTTL); !errors.Is(err, sessions.ErrBusy) {
			t.Errorf("Lease after %v of a held lease: error = %v, want ErrBusy", 4*leaseTTL, err)
		}
		wantNotLost(t, held)
		if err := held.Release(t.Context()); err != nil {
			t.Fatal(err)
		}
		// Giving a lease up is not losing it.
		wantNotLost(t, held)
	}},
	{"lease_of_a_vanished_holder_expires", func(t *testing.T, svc sessions.Service) {
		// The holder's invocation ends without releasing, as when its
		// replica dies: renewal stops and the lease runs out.
		invocation, cancel := context.WithCancel(t.Context())
		vanished := takeLease(invocation, t, svc, "s1", "owner-a")
		cancel()
		wantNotLost(t, vanished)
		if _, err := svc.Lease(t.Context(), "app", "u1", "s1", "owner-b", leaseTTL); !errors.Is(err, sessions.ErrBusy) {
			t.Fatalf("Lease right after the holder vanished: error = %v, want ErrBusy", err)
		}
		deadline := time.Now().Add(10 * leaseTTL)
		for {
			l, err := svc.Lease(t.Context(), "app", "u1", "s1", "owner-b", leaseTTL)
			if err == nil {
				_ = l.Release(t.Context())
				return
			}
			if !errors.Is(err, sessions.ErrBusy) || time.Now().After(deadline) {
				t.Fatalf("Lease after the holder's ttl: %v", err)
			}
			time.Sleep(leaseTTL / 10)
		}
	}},
}

func takeLease(ctx context.Context, t *testing.T, svc sessions.Service, id, owner string) sessions.Lease {
	t.Helper()
	l, err := svc.Lease(ctx, "app", "u1", id, owner, leaseTTL)
	if err != nil {
		t.Fatalf("Lease(%s, %s): %v", id, owner, err)
	}
	t.Cleanup(func() { _ = l.Release(context.WithoutCancel(ctx)) })
	return l
}

// wantNotLost checks that l reports no loss.
func wantNotLost(t *testing.T, l sessions.Lease) {
	t.Helper()
	select {
	case <-l.Lost():
		t.Errorf("the lease was lost: %v", l.Err())
	default:
	}
	if err := l.Err(); err != nil {
		t.Errorf("lease Err = %v, want nil", err)
	}
}
