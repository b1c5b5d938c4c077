package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/tlsconfig"
)

// newHTTPServer returns the HTTP server of the REST listener: the gateway
// and ADK's routes of srv, with the dev UI of --dev-ui, A2A of --a2a, the
// traces of b and the metrics unless --metrics-addr serves them apart.
// GET /health reports healthy.
func newHTTPServer(ctx context.Context, o *options, srv *server.Server, healthy func() bool, tlsr *tlsconfig.Reloader, b *backends) (*http.Server, error) {
	opts, err := httpOptions(o, b)
	if err != nil {
		return nil, err
	}
	handler, err := srv.HTTPHandler(ctx, healthy, opts...)
	if err != nil {
		return nil, err
	}
	instrumented, err := b.tel.httpHandler(handler)
	if err != nil {
		return nil, fmt.Errorf("http metrics: %w", err)
	}
	// No WriteTimeout: it would cut a long /run_sse response. The handler
	// bounds the body's read time itself and answers 408, where
	// ReadTimeout would drop the connection without an answer.
	hs := &http.Server{
		Handler:           instrumented,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	if tlsr != nil {
		hs.TLSConfig = tlsr.Config("h2", "http/1.1")
	}
	return hs, nil
}

// httpOptions are the options of the REST handler that o and b ask for.
func httpOptions(o *options, b *backends) ([]server.HTTPOption, error) {
	opts := []server.HTTPOption{
		server.WithMaxRequestBytes(int64(o.maxRequestBytes)),
		server.WithAllowOrigins(splitList(o.allowOrigins)),
		server.WithListenAddr(o.httpAddr),
		server.WithBodyReadTimeout(o.httpBodyTimeout),
	}
	if o.metricsAddr == "" {
		opts = append(opts, server.WithMetrics(b.tel.metricsHandler()))
	}
	if b.traces != nil {
		opts = append(opts, server.WithTraces(b.traces))
	}
	if o.devUI != "" {
		ui := os.DirFS(o.devUI)
		if err := server.CheckDevUI(ui); err != nil {
			return nil, fmt.Errorf("--dev-ui %s: %w (make dev-ui installs ADK's web UI into .tools/dev-ui)", o.devUI, err)
		}
		opts = append(opts, server.WithDevUI(ui))
	}
	if o.a2aURL != "" && !o.a2a {
		return nil, errors.New("--a2a-url: only applies with --a2a")
	}
	if o.a2a {
		if err := server.CheckA2AURL(o.a2aURL); err != nil {
			return nil, fmt.Errorf("--a2a-url: %w", err)
		}
		opts = append(opts, server.WithA2A(strings.TrimRight(o.a2aURL, "/")))
	}
	return opts, nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
