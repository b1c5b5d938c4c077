package main

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// flakyStore is a session store whose Ping fails while down is set.
type flakyStore struct {
	sessions.Service
	down atomic.Bool
}

func (s *flakyStore) Ping(context.Context) error {
	if s.down.Load() {
		return sessions.ErrUnavailable
	}
	return nil
}

// TestReadinessFollowsTheStore checks that health turns NOT_SERVING while
// the store is unreachable and SERVING again when it is back, over gRPC
// health and the /health flag, and that draining wins over a store that
// answers.
func TestReadinessFollowsTheStore(t *testing.T) {
	t.Parallel()
	// In a bubble the store checks tick on a fake clock.
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		hs := health.NewServer()
		ready := newReadiness(hs)
		store := &flakyStore{}
		log := slog.New(slog.DiscardHandler)

		status := func() healthpb.HealthCheckResponse_ServingStatus {
			r, err := hs.Check(ctx, &healthpb.HealthCheckRequest{})
			if err != nil {
				t.Fatal(err)
			}
			return r.Status
		}
		waitFor := func(want healthpb.HealthCheckResponse_ServingStatus) {
			t.Helper()
			deadline := time.Now().Add(5 * time.Second)
			for status() != want || ready.serving() != (want == healthpb.HealthCheckResponse_SERVING) {
				if time.Now().After(deadline) {
					t.Fatalf("health = %v, serving() = %v; want %v", status(), ready.serving(), want)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}

		waitFor(healthpb.HealthCheckResponse_NOT_SERVING) // not listening yet
		ready.checkStore(ctx, store, time.Second, log)
		ready.setListening(true)
		waitFor(healthpb.HealthCheckResponse_SERVING)
		go ready.watchStore(ctx, store, 10*time.Millisecond, time.Second, log)

		store.down.Store(true)
		waitFor(healthpb.HealthCheckResponse_NOT_SERVING)
		store.down.Store(false)
		waitFor(healthpb.HealthCheckResponse_SERVING)

		ready.setListening(false)
		hs.Shutdown()
		time.Sleep(30 * time.Millisecond) // a few more checks of a store that answers
		waitFor(healthpb.HealthCheckResponse_NOT_SERVING)
	})
}

func TestReadinessStoreDownAtStart(t *testing.T) {
	t.Parallel()
	hs := health.NewServer()
	ready := newReadiness(hs)
	store := &flakyStore{}
	store.down.Store(true)
	ready.checkStore(t.Context(), store, time.Second, slog.New(slog.DiscardHandler))
	ready.setListening(true)
	if ready.serving() {
		t.Error("serving with the store down at start")
	}
	if r, _ := hs.Check(t.Context(), &healthpb.HealthCheckRequest{}); r.GetStatus() != healthpb.HealthCheckResponse_NOT_SERVING {
		t.Errorf("health = %v, want NOT_SERVING", r.GetStatus())
	}
}
