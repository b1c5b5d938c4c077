package main

import (
	"context"
	"os"
	"strconv"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/semconv/v1.43.0/rpcconv"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"
)

// grpcMetrics records the gRPC server's call durations, the instrument,
// scope and attributes otelgrpc records (in its default semantic
// conventions), without the span and propagation work otelgrpc does for
// each RPC and message: the stats handler of a process that exports no
// traces. Health checks are left out, as the traced handler leaves them.
type grpcMetrics struct {
	duration rpcconv.ServerCallDuration
	sets     attrSets[grpcMetricKey]
}

type grpcMetricKey struct {
	method string
	code   codes.Code
}

// grpcMethodKey holds an RPC's full method name in its context.
type grpcMethodKey struct{}

// newGRPCMetrics returns the stats handler, or false when the environment
// asks otelgrpc for other semantic conventions than its default.
func newGRPCMetrics(meters metric.MeterProvider) (*grpcMetrics, bool, error) {
	if strings.Contains(os.Getenv("OTEL_SEMCONV_STABILITY_OPT_IN"), "rpc/") {
		return nil, false, nil
	}
	meter := meters.Meter(otelgrpc.ScopeName, metric.WithInstrumentationVersion(otelgrpc.Version),
		metric.WithSchemaURL(semconv.SchemaURL))
	duration, err := rpcconv.NewServerCallDuration(meter, metric.WithExplicitBucketBoundaries(
		0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10))
	if err != nil {
		return nil, false, err
	}
	return &grpcMetrics{duration: duration}, true, nil
}

// TagRPC keeps the method of every RPC but the health checks.
func (g *grpcMetrics) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	if isHealthCheck(info.FullMethodName) {
		return ctx
	}
	return context.WithValue(ctx, grpcMethodKey{}, info.FullMethodName)
}

// HandleRPC records an RPC's duration when it ends.
func (g *grpcMetrics) HandleRPC(ctx context.Context, rs stats.RPCStats) {
	end, ok := rs.(*stats.End)
	if !ok {
		return
	}
	method, ok := ctx.Value(grpcMethodKey{}).(string)
	if !ok {
		return
	}
	code := codes.OK
	if end.Error != nil {
		code = status.Code(end.Error)
	}
	g.duration.Inst().Record(ctx, float64(end.EndTime.Sub(end.BeginTime))/1e9, g.sets.get(grpcMetricKey{method, code}, grpcMetricKey.attributes))
}

// TagConn returns ctx: connections are not measured.
func (*grpcMetrics) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

// HandleConn does nothing: connections are not measured.
func (*grpcMetrics) HandleConn(context.Context, stats.ConnStats) {}

// attributes are the metric attributes of k, as otelgrpc gives them.
func (k grpcMetricKey) attributes() []attribute.KeyValue {
	var attrs []attribute.KeyValue
	if name, ok := strings.CutPrefix(k.method, "/"); ok {
		attrs = append(attrs, semconv.RPCMethod(name))
	}
	attrs = append(attrs, semconv.RPCSystemNameGRPC, semconv.RPCResponseStatusCode(codeName(k.code)))
	switch k.code {
	// The codes a server's failure, not its caller's, ends with.
	case codes.Unknown, codes.DeadlineExceeded, codes.Unimplemented, codes.Internal, codes.Unavailable, codes.DataLoss:
		attrs = append(attrs, semconv.ErrorTypeKey.String(codeName(k.code)))
	}
	return attrs
}

// codeNames are the canonical names of gRPC's codes, as its specification
// spells them.
var codeNames = [...]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
	"UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// codeName is a code's canonical name.
func codeName(c codes.Code) string {
	if int(c) < len(codeNames) {
		return codeNames[c]
	}
	return "CODE(" + strconv.FormatUint(uint64(c), 10) + ")"
}

// isHealthCheck reports whether a full method name is of gRPC's health
// checking service.
func isHealthCheck(fullMethod string) bool {
	return strings.HasPrefix(strings.TrimLeft(fullMethod, "/"), "grpc.health.v1.Health")
}
