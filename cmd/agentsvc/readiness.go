package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Readiness polling of the session store.
const (
	storeCheckInterval = time.Second
	storeCheckTimeout  = 500 * time.Millisecond
)

// readiness is what gRPC health and GET /health report: SERVING while both
// listeners accept connections and the session store answers (a Redis
// Cluster while any of its nodes does), NOT_SERVING otherwise and for good
// once draining starts. It is safe for concurrent use.
type readiness struct {
	health *health.Server

	mu        sync.Mutex
	listening bool
	storeUp   bool
}

func newReadiness(h *health.Server) *readiness {
	r := &readiness{health: h, storeUp: true}
	r.publish()
	return r
}

// serving reports whether the service is ready, for GET /health.
func (r *readiness) serving() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.listening && r.storeUp
}

// setListening records that the listeners accept connections, or stopped.
func (r *readiness) setListening(on bool) {
	r.mu.Lock()
	r.listening = on
	r.mu.Unlock()
	r.publish()
}

// setStoreUp records the outcome of a store check and reports whether it
// changed.
func (r *readiness) setStoreUp(up bool) bool {
	r.mu.Lock()
	changed := r.storeUp != up
	r.storeUp = up
	r.mu.Unlock()
	r.publish()
	return changed
}

// publish sets the gRPC health status; once the health server is shut down
// (draining) it stays NOT_SERVING.
func (r *readiness) publish() {
	st := healthpb.HealthCheckResponse_NOT_SERVING
	if r.serving() {
		st = healthpb.HealthCheckResponse_SERVING
	}
	r.health.SetServingStatus("", st)
}

// checkStore pings the store once, bounded by timeout.
func (r *readiness) checkStore(ctx context.Context, store sessions.Service, timeout time.Duration, log *slog.Logger) {
	pctx, cancel := context.WithTimeout(ctx, timeout)
	err := store.Ping(pctx)
	cancel()
	if ctx.Err() != nil {
		return
	}
	if r.setStoreUp(err == nil) {
		if err != nil {
			log.Warn("session store unreachable; health is NOT_SERVING", "err", err)
		} else {
			log.Info("session store reachable again; health is SERVING")
		}
	}
}

// watchStore checks the store every interval until ctx ends.
func (r *readiness) watchStore(ctx context.Context, store sessions.Service, interval, timeout time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.checkStore(ctx, store, timeout, log)
		}
	}
}
