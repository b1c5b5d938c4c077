package main

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
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
	rec := httptest.NewRecorder()
	tel.metricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "# HELP") {
		t.Errorf("GET /metrics = %d %q", rec.Code, rec.Body.String())
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
