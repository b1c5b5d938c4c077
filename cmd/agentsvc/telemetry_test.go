package main

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestMetricsRoute(t *testing.T) {
	t.Parallel()
	tel, err := newTelemetry(t.Context(), func(string) string { return "" }, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tel.shutdown(context.Background()) })
	if tel.tracing {
		t.Error("tracing is on without OTEL_* variables")
	}
	// A REST request and an RPC, measured without traces.
	api, err := tel.httpHandler(http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	api.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/list-apps", nil))
	rpcs, ok, err := newGRPCMetrics(tel.meter)
	if err != nil || !ok {
		t.Fatalf("newGRPCMetrics: %v, %v", ok, err)
	}
	runRPCs([]rpcCase{{"/agentsvc.v1.RunnerService/Run", nil, time.Millisecond}}, time.Now())(rpcs)
	rec := httptest.NewRecorder()
	tel.metricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "# HELP") {
		t.Errorf("GET /metrics = %d %q", rec.Code, rec.Body.String())
	}
	for _, m := range []string{`http_server_request_duration_seconds_count{http_request_method="GET",http_response_status_code="404"`,
		`rpc_server_call_duration_seconds_count{otel_scope_name="go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"`} {
		if !strings.Contains(rec.Body.String(), m) {
			t.Errorf("GET /metrics has no %s...:\n%s", m, rec.Body.String())
		}
	}
	rec = httptest.NewRecorder()
	tel.metricsServer().Handler.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "# HELP") {
		t.Errorf("--metrics-addr GET /metrics = %d %q", rec.Code, rec.Body.String())
	}
}

func TestExportFollowsTheEnvironment(t *testing.T) {
	t.Parallel()
	const endpoint = "http://127.0.0.1:4317"
	tests := []struct {
		env                 map[string]string
		traces, otlpMetrics bool
	}{
		{map[string]string{}, false, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}, true, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": endpoint}, true, false},
		{map[string]string{"OTEL_TRACES_EXPORTER": "console"}, true, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_TRACES_EXPORTER": "none"}, false, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_METRICS_EXPORTER": "prometheus"}, true, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_SDK_DISABLED": "true"}, false, false},
	}
	for _, tc := range tests {
		getenv := func(k string) string { return tc.env[k] }
		if got := tracesAsked(getenv); got != tc.traces {
			t.Errorf("traces with %v = %v, want %v", tc.env, got, tc.traces)
		}
		if got := metricsAsked(getenv); got != tc.otlpMetrics {
			t.Errorf("OTLP metrics with %v = %v, want %v", tc.env, got, tc.otlpMetrics)
		}
	}
}
