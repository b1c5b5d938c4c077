package server_test

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/structpb"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/procstat"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// discardSpans is a span exporter that drops what it is given.
type discardSpans struct{}

func (discardSpans) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discardSpans) Shutdown(context.Context) error                             { return nil }

// BenchmarkConnectToolTurnTelemetryMemoryStoreScriptedModel measures one two-step tool turn over
// Connect (the model calls the client's tool, the client answers, the model
// answers) through the gRPC server on bufconn, session creation included:
//   - off: no-op providers and no stats handler;
//   - metrics: what agentsvc runs without OTEL_* variables: SDK metrics,
//     the otelgrpc stats handler, a no-op tracer;
//   - traces: metrics, and every trace sampled into a batch span
//     processor whose exporter discards the spans;
//   - auth+traces: traces, and every call authenticated with a JWT
//     (--auth jwt) and authorised for its user;
//   - auth+sampled: auth+traces with one trace in ten sampled, at the head
//     (OTEL_TRACES_SAMPLER=parentbased_traceidratio, 0.1).
//
// cpu-ns/op is the process's CPU time (user and system) per turn, client
// included.
func BenchmarkConnectToolTurnTelemetryMemoryStoreScriptedModel(b *testing.B) {
	key := authtest.NewKey(b, "k1")
	for _, mode := range []string{"off", "metrics", "traces", "auth+traces", "auth+sampled"} {
		b.Run(mode, func(b *testing.B) {
			ctx := b.Context()
			var tp trace.TracerProvider = tracenoop.NewTracerProvider()
			var mp metric.MeterProvider = metricnoop.NewMeterProvider()
			var opts []fixtureOption
			if mode != "off" {
				smp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
				b.Cleanup(func() { _ = smp.Shutdown(context.Background()) })
				mp = smp
			}
			if strings.HasPrefix(mode, "auth+") {
				a := newJWTAuthenticator(b, key)
				opts = append(opts, withConfig(func(cfg *server.Config) { cfg.Authenticator = a }),
					withServerOptions(server.AuthOptions(a, nil)...))
				ctx = withToken(ctx, key.Token(b, userID, nil))
			}
			if mode != "off" && mode != "metrics" {
				sampler := sdktrace.AlwaysSample()
				if mode == "auth+sampled" {
					sampler = sdktrace.ParentBased(sdktrace.TraceIDRatioBased(0.1))
				}
				stp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discardSpans{}), sdktrace.WithSampler(sampler))
				b.Cleanup(func() { _ = stp.Shutdown(context.Background()) })
				tp = stp
			}
			if mode != "off" {
				opts = append(opts, withServerOptions(grpc.StatsHandler(otelgrpc.NewServerHandler(
					otelgrpc.WithTracerProvider(tp), otelgrpc.WithMeterProvider(mp),
					otelgrpc.WithPropagators(propagation.TraceContext{})))))
			}
			tel, err := runtime.NewTelemetry(runtime.TelemetryConfig{TracerProvider: tp, MeterProvider: mp})
			if err != nil {
				b.Fatal(err)
			}
			opts = append(opts, withConfig(func(cfg *server.Config) {
				cfg.Apps[0].Runner.Telemetry = tel
				if mode != "off" {
					cfg.MeterProvider = mp
				}
			}))
			fx := newFixture(b, opts...)
			fx.model.SetRecording(false)
			sunny := structpb.NewStructValue(et.Struct(`{"sky":"sunny"}`))
			turn := func() {
				created, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
				if err != nil {
					b.Fatal(err)
				}
				fx.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("It is sunny."))
				stream, err := fx.runner.Connect(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if err := stream.Send(startMsg(created.Session.Id, "Weather?", weatherTool)); err != nil {
					b.Fatal(err)
				}
				for {
					m, err := stream.Recv()
					if err != nil {
						b.Fatalf("recv: %v", err)
					}
					if c := m.GetToolCall(); c != nil {
						if err := stream.Send(resultMsg(c.CallId, sunny)); err != nil {
							b.Fatal(err)
						}
					}
					if m.GetDone() != nil {
						break
					}
				}
			}
			procstat.Loop(b, turn)
		})
	}
}
