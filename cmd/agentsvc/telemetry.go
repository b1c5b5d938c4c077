package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc/filters"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
	"google.golang.org/grpc"

	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

// captureContentEnv is ADK's switch for prompt text in spans. ADK records it
// unless the variable says false; agentsvc records it only when the
// variable says true, since it is the users' data.
const captureContentEnv = "ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS"

// telemetryFlushTimeout bounds the export of the last spans and metrics at
// shutdown.
const telemetryFlushTimeout = 5 * time.Second

// telemetry is the process's OpenTelemetry set-up: traces exported as the
// OTEL_* variables say (none when they say nothing), metrics served in
// Prometheus text and, when the variables ask, exported over OTLP.
type telemetry struct {
	tracer      trace.TracerProvider
	meter       metric.MeterProvider
	propagator  propagation.TextMapPropagator
	metrics     http.Handler // Prometheus text of the process's metrics
	engine      *runtime.Telemetry
	tracing     bool
	shutdownFns []func(context.Context) error
}

// newTelemetry sets up tracing and metrics from the environment and makes
// them the global providers. With buf, spans are also kept in it (for the
// dev UI's trace routes), exported or not.
func newTelemetry(ctx context.Context, getenv func(string) string, log *slog.Logger, buf *tracebuffer.Buffer) (*telemetry, error) {
	t := &telemetry{
		tracer:     tracenoop.NewTracerProvider(),
		propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}),
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "agentsvc")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("telemetry: resource: %w", err)
	}
	var spanOpts []sdktrace.TracerProviderOption
	if tracesAsked(getenv) {
		exp, err := autoexport.NewSpanExporter(ctx)
		if err != nil {
			return nil, fmt.Errorf("telemetry: trace exporter: %w", err)
		}
		if !autoexport.IsNoneSpanExporter(exp) {
			spanOpts = append(spanOpts, sdktrace.WithBatcher(exp))
		}
	}
	if buf != nil {
		spanOpts = append(spanOpts, sdktrace.WithSpanProcessor(buf))
	}
	if len(spanOpts) > 0 {
		tp := sdktrace.NewTracerProvider(append(spanOpts, sdktrace.WithResource(res))...)
		t.tracer, t.tracing = tp, true
		t.shutdownFns = append(t.shutdownFns, tp.Shutdown)
	}

	reg := prometheus.NewRegistry()
	prom, err := otelprom.New(otelprom.WithRegisterer(reg))
	if err != nil {
		return nil, fmt.Errorf("telemetry: prometheus exporter: %w", err)
	}
	readers := []sdkmetric.Option{sdkmetric.WithReader(prom), sdkmetric.WithResource(res)}
	if metricsAsked(getenv) {
		r, err := autoexport.NewMetricReader(ctx)
		if err != nil {
			return nil, fmt.Errorf("telemetry: metric exporter: %w", err)
		}
		if !autoexport.IsNoneMetricReader(r) {
			readers = append(readers, sdkmetric.WithReader(r))
		}
	}
	mp := sdkmetric.NewMeterProvider(readers...)
	t.meter = mp
	t.shutdownFns = append(t.shutdownFns, mp.Shutdown)
	t.metrics = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})

	capture := strings.EqualFold(getenv(captureContentEnv), "true") || getenv(captureContentEnv) == "1"
	t.engine, err = runtime.NewTelemetry(runtime.TelemetryConfig{TracerProvider: t.tracer, MeterProvider: mp,
		CaptureContent: capture})
	if err != nil {
		return nil, fmt.Errorf("telemetry: %w", err)
	}
	otel.SetTracerProvider(t.tracer)
	otel.SetMeterProvider(mp)
	otel.SetTextMapPropagator(t.propagator)
	log.Info("telemetry", "tracing", t.tracing, "capture_content", capture)
	return t, nil
}

// tracesAsked reports whether the environment asks for traces to be
// exported: without any OTEL_* variable, they are not.
func tracesAsked(getenv func(string) string) bool {
	return !sdkDisabled(getenv) && asks(getenv, "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
}

// metricsAsked reports whether the environment asks for metrics to be
// exported besides /metrics (which OTEL_METRICS_EXPORTER=prometheus means).
func metricsAsked(getenv func(string) string) bool {
	return !sdkDisabled(getenv) && getenv("OTEL_METRICS_EXPORTER") != "prometheus" &&
		asks(getenv, "OTEL_METRICS_EXPORTER", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
}

func sdkDisabled(getenv func(string) string) bool {
	return strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true")
}

// asks reports whether the environment asks for an exporter of a signal:
// its own exporter or endpoint variable, or the common OTLP endpoint.
func asks(getenv func(string) string, exporterVar, endpointVar string) bool {
	if v := getenv(exporterVar); v != "" {
		return v != "none"
	}
	return getenv(endpointVar) != "" || getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
}

// storeTracer is the tracer provider of the Redis client: nil, for no
// spans, unless traces are exported.
func (t *telemetry) storeTracer() trace.TracerProvider {
	if !t.tracing {
		return nil
	}
	return t.tracer
}

// grpcOption is the gRPC server's instrumentation: the RPC metrics and,
// when traces are kept, a span per RPC joined to the caller's trace
// context. Health checks are left out: probes would fill the traces.
func (t *telemetry) grpcOption() grpc.ServerOption {
	if !t.tracing {
		// The same metrics without span work; otelgrpc where its
		// conventions are asked for, or should the instrument fail.
		if m, ok, err := newGRPCMetrics(t.meter); err == nil && ok {
			return grpc.StatsHandler(m)
		}
	}
	return grpc.StatsHandler(otelgrpc.NewServerHandler(
		otelgrpc.WithTracerProvider(t.tracer), otelgrpc.WithMeterProvider(t.meter),
		otelgrpc.WithPropagators(t.propagator),
		otelgrpc.WithFilter(filters.Not(filters.HealthCheck()))))
}

// httpHandler wraps the REST handler in the HTTP server metrics and, when
// traces are kept, a span per request joined to the caller's trace context;
// probes and scrapes (/health, /metrics) are left out.
func (t *telemetry) httpHandler(api http.Handler) (http.Handler, error) {
	if !t.tracing {
		return newHTTPMetrics(api, t.meter)
	}
	return otelhttp.NewHandler(api, "agentsvc.rest",
		otelhttp.WithTracerProvider(t.tracer), otelhttp.WithMeterProvider(t.meter),
		otelhttp.WithPropagators(t.propagator),
		otelhttp.WithFilter(func(r *http.Request) bool { return r.URL.Path != "/health" && r.URL.Path != "/metrics" }),
		otelhttp.WithSpanNameFormatter(restSpanName)), nil
}

// metricsHandler answers with the metrics in the Prometheus text format,
// for GET /metrics on the REST listener (see [server.WithMetrics]).
func (t *telemetry) metricsHandler() http.Handler { return t.metrics }

// serveMetrics answers GET (and HEAD) with the metrics, 405 otherwise.
func (t *telemetry) serveMetrics(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	t.metrics.ServeHTTP(w, r)
}

// metricsServer serves only /metrics, for --metrics-addr.
func (t *telemetry) metricsServer() *http.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", t.serveMetrics)
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second,
		WriteTimeout: 30 * time.Second, MaxHeaderBytes: 16 << 10}
}

// restSpanName names a REST request's span by its method and, for ADK's
// fixed routes, its path; paths with ids would make names without end.
func restSpanName(_ string, r *http.Request) string {
	switch p := r.URL.Path; p {
	case "/run", "/run_sse", "/openapi.json", "/list-apps":
		return r.Method + " " + p
	}
	return r.Method
}

// shutdown flushes what is left to export and stops the exporters.
func (t *telemetry) shutdown(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), telemetryFlushTimeout)
	defer cancel()
	var errs []error
	for _, f := range t.shutdownFns {
		errs = append(errs, f(ctx))
	}
	return errors.Join(errs...)
}
