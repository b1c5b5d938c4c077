package server

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/metric"
)

// registerMetrics observes the server's gauges on mp when metrics are
// read: the open Connect streams and the running invocations. They cost
// nothing on the request path.
func (s *Server) registerMetrics(mp metric.MeterProvider) error {
	m := mp.Meter("github.com/agentsvc/agentsvc/internal/server")
	streams, err := m.Int64ObservableUpDownCounter("agentsvc.connect.streams", metric.WithUnit("{stream}"),
		metric.WithDescription("Connect streams open."))
	if err != nil {
		return fmt.Errorf("server: metrics: %w", err)
	}
	running, err := m.Int64ObservableUpDownCounter("agentsvc.invocations.running", metric.WithUnit("{invocation}"),
		metric.WithDescription("Invocations running."))
	if err != nil {
		return fmt.Errorf("server: metrics: %w", err)
	}
	_, err = m.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		o.ObserveInt64(streams, s.connectStreams.Load())
		o.ObserveInt64(running, int64(s.invocations.running()))
		return nil
	}, streams, running)
	if err != nil {
		return fmt.Errorf("server: metrics: %w", err)
	}
	return nil
}
