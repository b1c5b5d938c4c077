package server_test

import (
	"context"
	"testing"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// gauges collects the server's gauges from reader.
func gauges(t *testing.T, reader sdkmetric.Reader) map[string]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if sum, ok := m.Data.(metricdata.Sum[int64]); ok && len(sum.DataPoints) > 0 {
				out[m.Name] = sum.DataPoints[0].Value
			}
		}
	}
	return out
}

func TestMetricsReportOpenStreamsAndRunningInvocations(t *testing.T) {
	t.Parallel()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	s := newStackWith(t, func(cfg *server.Config) { cfg.MeterProvider = mp })
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if g := gauges(t, reader); g["agentsvc.connect.streams"] != 0 || g["agentsvc.invocations.running"] != 0 {
		t.Fatalf("idle gauges = %v, want zeros", g)
	}
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("Sunny."))
	stream := s.connect(t, ctx, startMsg(sid, "Weather?", weatherTool))
	// The invocation waits for the client's tool result.
	for {
		m, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		if m.GetToolCall() != nil {
			break
		}
	}
	want := map[string]int64{"agentsvc.connect.streams": 1, "agentsvc.invocations.running": 1}
	if g := gauges(t, reader); g["agentsvc.connect.streams"] != 1 || g["agentsvc.invocations.running"] != 1 {
		t.Errorf("gauges mid-invocation = %v, want %v", g, want)
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		g := gauges(t, reader)
		if g["agentsvc.connect.streams"] == 0 && g["agentsvc.invocations.running"] == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("gauges after the stream ended = %v, want zeros", g)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
