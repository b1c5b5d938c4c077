package main

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// BenchmarkRESTTelemetryMiddleware measures what the REST listener's
// telemetry adds to one request when no traces are exported: none at all
// (bare), the metrics the listener records (metrics), and otelhttp with a
// tracer that keeps nothing, as the listener had it before (otelhttp).
func BenchmarkRESTTelemetryMiddleware(b *testing.B) {
	tel, err := newTelemetry(b.Context(), func(string) string { return "" }, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		b.Fatal(err)
	}
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	metrics, err := tel.httpHandler(ok)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		h    http.Handler
	}{{"bare", ok}, {"metrics", metrics}, {"otelhttp", otelhttp.NewHandler(ok, "agentsvc.rest",
		otelhttp.WithTracerProvider(tracenoop.NewTracerProvider()), otelhttp.WithMeterProvider(tel.meter),
		otelhttp.WithPropagators(tel.propagator))}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, "/run", strings.NewReader("{}"))
				c.h.ServeHTTP(httptest.NewRecorder(), r)
			}
		})
	}
}
