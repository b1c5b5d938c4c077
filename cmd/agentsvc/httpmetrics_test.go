package main

import (
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// TestHTTPMetricsMatchOtelhttp sends the same requests through otelhttp and
// through httpMetrics and compares what each records: the same
// instruments, scope, attributes, counts and sizes (durations aside).
func TestHTTPMetricsMatchOtelhttp(t *testing.T) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/created":
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, "made")
		case "/missing":
			http.NotFound(w, r)
		case "/partial":
			_, _ = io.CopyN(io.Discard, r.Body, 3)
			_, _ = io.WriteString(w, "ok")
		case "/stream":
			w.(http.Flusher).Flush()
			w.WriteHeader(http.StatusInternalServerError) // too late: 200 was sent
			_, _ = io.WriteString(w, "data: 1\n\n")
		case "/early-hint":
			w.WriteHeader(http.StatusEarlyHints)
			w.WriteHeader(http.StatusAccepted)
		case "/silent":
		default:
			_, _ = io.Copy(io.Discard, r.Body)
			_, _ = io.WriteString(w, `{"answer":"yes"}`)
		}
	})
	requests := func() []*http.Request {
		var rs []*http.Request
		add := func(method, target, body string, edit func(*http.Request)) {
			r := httptest.NewRequest(method, target, strings.NewReader(body))
			if body == "" {
				r.Body = http.NoBody
			}
			if edit != nil {
				edit(r)
			}
			rs = append(rs, r)
		}
		add(http.MethodPost, "http://127.0.0.1:8080/run", `{"appName":"a"}`, nil)
		add(http.MethodPost, "http://127.0.0.1:8080/run", `{"appName":"b","x":1}`, nil)
		add(http.MethodGet, "http://localhost/created", "", nil)
		add(http.MethodGet, "http://localhost:80/missing", "", nil)
		add(http.MethodPost, "http://[::1]:8443/partial", "0123456789", nil)
		add(http.MethodGet, "http://[::1]/stream", "", nil)
		add(http.MethodGet, "http://example.com:99999/silent", "", nil)
		add(http.MethodGet, "http://h/early-hint", "", nil)
		add("PURGE", "http://h:8080/x", "", nil)
		add("patch", "http://h:8080/x", "{}", nil)
		add(http.MethodGet, "https://secure.example:443/created", "", func(r *http.Request) { r.TLS = &tls.ConnectionState{} })
		add(http.MethodGet, "https://secure.example:8443/created", "", func(r *http.Request) { r.TLS = &tls.ConnectionState{} })
		add(http.MethodGet, "http://h2:8080/created", "", func(r *http.Request) { r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/2.0", 2, 0 })
		add(http.MethodGet, "http://h:8080/health", "", nil)
		add(http.MethodGet, "http://h:8080/metrics", "", nil)
		return rs
	}
	record := func(wrap func(http.Handler, *sdkmetric.MeterProvider) http.Handler) metricdata.ResourceMetrics {
		reader := sdkmetric.NewManualReader()
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
		h := wrap(handler, mp)
		for _, r := range requests() {
			h.ServeHTTP(httptest.NewRecorder(), r)
		}
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(t.Context(), &rm); err != nil {
			t.Fatal(err)
		}
		return rm
	}
	want := record(func(h http.Handler, mp *sdkmetric.MeterProvider) http.Handler {
		return otelhttp.NewHandler(h, "agentsvc.rest", otelhttp.WithTracerProvider(tracenoop.NewTracerProvider()),
			otelhttp.WithMeterProvider(mp),
			otelhttp.WithFilter(func(r *http.Request) bool { return r.URL.Path != "/health" && r.URL.Path != "/metrics" }))
	})
	got := record(func(h http.Handler, mp *sdkmetric.MeterProvider) http.Handler {
		m, err := newHTTPMetrics(h, mp)
		if err != nil {
			t.Fatal(err)
		}
		return m
	})
	if n := len(want.ScopeMetrics); n != 1 || len(want.ScopeMetrics[0].Metrics) != 3 {
		t.Fatalf("otelhttp recorded %d scopes, want one of three instruments: %+v", n, want.ScopeMetrics)
	}
	// Names, units, scope and every point's attributes and count.
	metricdatatest.AssertEqual(t, want, got, metricdatatest.IgnoreTimestamp(), metricdatatest.IgnoreValue())
	// The sizes, to the byte.
	for i, m := range want.ScopeMetrics[0].Metrics {
		if m.Name != "http.server.request.duration" {
			metricdatatest.AssertEqual(t, m, got.ScopeMetrics[0].Metrics[i], metricdatatest.IgnoreTimestamp())
		}
	}
}
