package redis

import (
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

func TestCommandsAreSpansWithoutTheirArguments(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	svc := newTestService(t, Options{TracerProvider: tp})
	ctx, parent := tp.Tracer("test").Start(t.Context(), "caller")
	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.AppendEvent(ctx, sess, textEvent(t, "a secret prompt", map[string]any{"k": "secret value"})); err != nil {
		t.Fatal(err)
	}
	parent.End()
	var commands int
	for _, s := range rec.Ended() {
		if s.Name() == "caller" {
			continue
		}
		// Connection set-up (hello, client) runs outside the caller's
		// trace; the create and append scripts run in it.
		if s.Parent().SpanID() == parent.SpanContext().SpanID() {
			commands++
		}
		for _, kv := range s.Attributes() {
			if strings.Contains(kv.Value.String(), "secret") {
				t.Errorf("span %s records data in %s: %s", s.Name(), kv.Key, kv.Value.String())
			}
		}
	}
	if commands < 2 {
		t.Errorf("%d command spans, want the scripts of create and append as children of the caller", commands)
	}
}
