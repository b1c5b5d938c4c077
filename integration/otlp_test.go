package integration

import (
	"context"
	"encoding/hex"
	"net"
	"sync"
	"testing"
	"time"

	collectormetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// otlpReceiver is an OTLP/gRPC receiver: the collector's TraceService,
// keeping every span it is sent, and its MetricsService, keeping the names
// of the metrics.
type otlpReceiver struct {
	collectortrace.UnimplementedTraceServiceServer
	addr string

	mu      sync.Mutex
	spans   []receivedSpan
	metrics map[string]bool
}

// receivedSpan is a span with the instrumentation scope that made it.
type receivedSpan struct {
	scope string
	*tracepb.Span
}

// startOTLPReceiver serves a receiver on a loopback port until the test ends.
func startOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &otlpReceiver{addr: lis.Addr().String(), metrics: map[string]bool{}}
	gs := grpc.NewServer()
	collectortrace.RegisterTraceServiceServer(gs, r)
	collectormetrics.RegisterMetricsServiceServer(gs, otlpMetrics{r: r})
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	return r
}

// Export implements the collector's TraceService.
func (r *otlpReceiver) Export(_ context.Context, req *collectortrace.ExportTraceServiceRequest) (*collectortrace.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				r.spans = append(r.spans, receivedSpan{scope: ss.GetScope().GetName(), Span: s})
			}
		}
	}
	return &collectortrace.ExportTraceServiceResponse{}, nil
}

// otlpMetrics is the receiver's MetricsService.
type otlpMetrics struct {
	collectormetrics.UnimplementedMetricsServiceServer
	r *otlpReceiver
}

// Export implements the collector's MetricsService.
func (m otlpMetrics) Export(_ context.Context, req *collectormetrics.ExportMetricsServiceRequest) (*collectormetrics.ExportMetricsServiceResponse, error) {
	r := m.r
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rm := range req.GetResourceMetrics() {
		for _, sm := range rm.GetScopeMetrics() {
			for _, m := range sm.GetMetrics() {
				r.metrics[m.GetName()] = true
			}
		}
	}
	return &collectormetrics.ExportMetricsServiceResponse{}, nil
}

// metric waits until a metric named name arrived.
func (r *otlpReceiver) metric(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r.mu.Lock()
		got := r.metrics[name]
		r.mu.Unlock()
		if got {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no metric %s exported over OTLP after 20s", name)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// trace waits until a span named last of the trace traceID (hex) arrived,
// then returns the trace's spans.
func (r *otlpReceiver) trace(t *testing.T, traceID, last string) []receivedSpan {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r.mu.Lock()
		var got []receivedSpan
		done := false
		for _, s := range r.spans {
			if hex.EncodeToString(s.TraceId) == traceID {
				got = append(got, s)
				done = done || s.Name == last
			}
		}
		r.mu.Unlock()
		if done {
			// Spans of one trace may come in several batches.
			time.Sleep(300 * time.Millisecond)
			r.mu.Lock()
			got = got[:0]
			for _, s := range r.spans {
				if hex.EncodeToString(s.TraceId) == traceID {
					got = append(got, s)
				}
			}
			r.mu.Unlock()
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q span of trace %s after 20s; got %d spans of it", last, traceID, len(got))
		}
		time.Sleep(50 * time.Millisecond)
	}
}
