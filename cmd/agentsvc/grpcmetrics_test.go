package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc/filters"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
)

// TestGRPCMetricsMatchOtelgrpc ends the same RPCs in otelgrpc's server
// handler and in grpcMetrics and compares what each records: the same
// instrument, scope, attributes, counts and durations.
func TestGRPCMetricsMatchOtelgrpc(t *testing.T) {
	begin := time.Unix(1_700_000_000, 0)
	rpcs := []rpcCase{
		{"/agentsvc.v1.RunnerService/Run", nil, 12 * time.Millisecond},
		{"/agentsvc.v1.RunnerService/Run", nil, 3 * time.Millisecond},
		{"/agentsvc.v1.RunnerService/Connect", status.Error(codes.Canceled, "gone"), 2 * time.Second},
		{"/agentsvc.v1.SessionService/GetSession", status.Error(codes.NotFound, "no"), time.Millisecond},
		{"/agentsvc.v1.RunnerService/Run", status.Error(codes.Unavailable, "store"), 40 * time.Millisecond},
		{"/agentsvc.v1.RunnerService/Run", status.Error(codes.DeadlineExceeded, "late"), 10 * time.Minute},
		{"/agentsvc.v1.RunnerService/Run", status.Error(codes.Code(42), "odd"), time.Millisecond},
		{"/agentsvc.v1.RunnerService/Run", errors.New("not a status"), time.Millisecond},
		{"/agentsvc.v1.AppService/ListApps", status.Error(codes.ResourceExhausted, "busy"), time.Millisecond},
		{"/grpc.health.v1.Health/Check", nil, time.Millisecond},
		{"/grpc.health.v1.Health/Watch", status.Error(codes.Canceled, "bye"), time.Second},
		{"no-slash", nil, time.Millisecond},
	}
	want := collect(t, func(mp *sdkmetric.MeterProvider) stats.Handler {
		return otelgrpc.NewServerHandler(otelgrpc.WithTracerProvider(tracenoop.NewTracerProvider()),
			otelgrpc.WithMeterProvider(mp), otelgrpc.WithFilter(filters.Not(filters.HealthCheck())))
	}, runRPCs(rpcs, begin))
	got := collect(t, func(mp *sdkmetric.MeterProvider) stats.Handler {
		m, ok, err := newGRPCMetrics(mp)
		if err != nil || !ok {
			t.Fatalf("newGRPCMetrics: %v, %v", ok, err)
		}
		return m
	}, runRPCs(rpcs, begin))
	if len(want.ScopeMetrics) != 1 || len(want.ScopeMetrics[0].Metrics) != 1 {
		t.Fatalf("otelgrpc recorded %+v, want one instrument", want.ScopeMetrics)
	}
	if n := len(want.ScopeMetrics[0].Metrics[0].Data.(metricdata.Histogram[float64]).DataPoints); n < 8 {
		t.Fatalf("otelgrpc recorded %d points, want one per method and code", n)
	}
	metricdatatest.AssertEqual(t, want, got, metricdatatest.IgnoreTimestamp())
}

type rpcCase = struct {
	method string
	err    error
	took   time.Duration
}

// runRPCs returns what sends rpcs through a stats handler: each tagged,
// begun, a message each way, ended.
func runRPCs(rpcs []rpcCase, begin time.Time) func(stats.Handler) {
	return func(h stats.Handler) {
		for _, r := range rpcs {
			ctx := h.TagRPC(context.Background(), &stats.RPCTagInfo{FullMethodName: r.method})
			h.HandleRPC(ctx, &stats.Begin{BeginTime: begin})
			h.HandleRPC(ctx, &stats.InPayload{Length: 10})
			h.HandleRPC(ctx, &stats.OutPayload{Length: 10})
			h.HandleRPC(ctx, &stats.End{BeginTime: begin, EndTime: begin.Add(r.took), Error: r.err})
		}
	}
}

// collect builds a handler on a fresh meter provider, runs it and returns
// what the provider recorded.
func collect(t *testing.T, build func(*sdkmetric.MeterProvider) stats.Handler, run func(stats.Handler)) metricdata.ResourceMetrics {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	run(build(mp))
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	return rm
}
