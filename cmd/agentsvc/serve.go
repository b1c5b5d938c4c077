package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
)

// stopTimeout bounds how long cancelled invocations may take to end and
// release their leases once the shutdown grace has elapsed.
const stopTimeout = 5 * time.Second

// serve wires the service and runs it until ctx ends, then drains: it opens
// the backends, builds the service on them, binds the listeners and serves
// them, and on the way out undoes each step in the reverse order.
func serve(ctx context.Context, o *options, getenv func(string) string, log *slog.Logger) error {
	b, err := openBackends(ctx, o, getenv, log)
	if err != nil {
		return err
	}
	// Deferred first, so it runs last: the spans of the drain are flushed.
	defer b.close(ctx, log)
	svc, err := newService(ctx, o, b, log)
	if err != nil {
		return err
	}
	defer func() { _ = svc.closeAudit() }()
	s, err := newServers(ctx, o, b, svc, log)
	if err != nil {
		closeApps(context.WithoutCancel(ctx), svc.apps, log)
		return err
	}
	errc := s.serve(o, log)
	// Both listeners are bound and served: accept connections from here on,
	// while the session store answers.
	s.ready.checkStore(ctx, b.store, storeCheckTimeout, log)
	s.ready.setListening(true)
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go s.ready.watchStore(watchCtx, b.store, storeCheckInterval, storeCheckTimeout, log)
	log.Info("agentsvc serving", "grpc", s.grpcLis.Addr().String(), "http", s.httpLis.Addr().String(),
		"apps", len(svc.apps), "sessions", redactURL(o.sessions), "memory", redactURL(o.memory), "artifacts", redactURL(o.artifacts), "tls", s.tls, "mtls", s.mtls)

	select {
	case <-ctx.Done():
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	}

	log.Info("draining", "grace", o.shutdownGrace)
	stopWatch()
	drain(ctx, o, s, svc, log)
	log.Info("stopped")
	return nil
}

// servers are the listeners of the service and the servers of them: gRPC,
// HTTP and, with --metrics-addr, metrics.
type servers struct {
	grpcLis, httpLis net.Listener
	// metricsLis is nil without --metrics-addr, and so is metrics.
	metricsLis net.Listener

	grpc    *grpc.Server
	health  *health.Server
	ready   *readiness
	http    *http.Server
	metrics *http.Server

	// tls and mtls report the transport security of the listeners.
	tls, mtls bool
}

// newServers binds the listeners of o and builds the servers of svc on
// them, not serving yet. On an error it closes the listeners it bound.
func newServers(ctx context.Context, o *options, b *backends, svc *service, log *slog.Logger) (_ *servers, err error) {
	tlsr, err := newTLS(o, log)
	if err != nil {
		return nil, err
	}
	s := &servers{tls: tlsr != nil, mtls: tlsr != nil && tlsr.MutualTLS()}
	defer func() {
		if err != nil {
			s.closeListeners()
		}
	}()
	if s.grpcLis, err = net.Listen("tcp", o.grpcAddr); err != nil {
		return nil, fmt.Errorf("grpc listener: %w", err)
	}
	if s.httpLis, err = net.Listen("tcp", o.httpAddr); err != nil {
		return nil, fmt.Errorf("http listener: %w", err)
	}
	s.grpc, s.health = newGRPCServer(o, svc, tlsr, b.tel, log)
	s.ready = newReadiness(s.health) // NOT_SERVING until the listeners serve
	if s.http, err = newHTTPServer(ctx, o, svc.srv, s.ready.serving, tlsr, b); err != nil {
		return nil, err
	}
	if o.metricsAddr != "" {
		if s.metricsLis, err = net.Listen("tcp", o.metricsAddr); err != nil {
			return nil, fmt.Errorf("metrics listener: %w", err)
		}
		s.metrics = b.tel.metricsServer()
	}
	return s, nil
}

// closeListeners closes the listeners bound, in the reverse order of their
// binding, for an error before they are served.
func (s *servers) closeListeners() {
	for _, l := range []net.Listener{s.metricsLis, s.httpLis, s.grpcLis} {
		if l != nil {
			l.Close()
		}
	}
}

// serve serves every listener, and --debug-addr's profiles, in the
// background. The channel returned reports the error of a gRPC or HTTP
// server that stopped serving.
func (s *servers) serve(o *options, log *slog.Logger) <-chan error {
	if o.debugAddr != "" {
		go serveDebug(o.debugAddr, log)
	}
	if s.metrics != nil {
		go func() {
			if err := s.metrics.Serve(s.metricsLis); !errors.Is(err, http.ErrServerClosed) {
				log.Error("metrics listener", "err", err)
			}
		}()
		log.Info("metrics serving", "addr", s.metricsLis.Addr().String())
	}
	errc := make(chan error, 2)
	go func() { errc <- s.grpc.Serve(s.grpcLis) }()
	go func() {
		if err := serveHTTP(s.http, s.httpLis); !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	return errc
}

// drain shuts the service down: readiness and gRPC health turn
// NOT_SERVING, new invocations are refused, running ones have
// --shutdown-grace to end and are then cancelled, giving their leases back
// while the session store is still open; then the servers stop and the
// apps close.
func drain(ctx context.Context, o *options, s *servers, svc *service, log *slog.Logger) {
	s.ready.setListening(false)
	s.health.Shutdown() // every service reports NOT_SERVING
	svc.srv.Drain()     // new invocations get UNAVAILABLE from here on
	drainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.shutdownGrace)
	defer cancel()
	if err := svc.srv.Wait(drainCtx); err != nil {
		log.Warn("shutdown grace elapsed with invocations still running; cancelling them")
	}
	// Cancel what still runs and give its leases back while the store is
	// open (it closes when serve returns), so that other replicas can take
	// the sessions over at once.
	stopCtx, stopCancel := context.WithTimeout(context.WithoutCancel(ctx), stopTimeout)
	defer stopCancel()
	if err := svc.srv.Stop(stopCtx); err != nil {
		log.Warn("invocations still running after cancellation; their leases expire on their own", "err", err)
	}
	s.stop(drainCtx)
	closeApps(stopCtx, svc.apps, log)
}

// stop stops the servers: gRPC gracefully until ctx ends, then at once,
// HTTP likewise, and metrics at once.
func (s *servers) stop(ctx context.Context) {
	done := make(chan struct{})
	go func() { s.grpc.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		s.grpc.Stop()
	}
	if err := s.http.Shutdown(ctx); err != nil {
		s.http.Close()
	}
	if s.metrics != nil {
		s.metrics.Close()
	}
}
