package tracebuffer_test

import (
	"context"
	"fmt"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

// TestBufferKeepsTheLastSpans: the buffer keeps the last max spans, finds
// the call span of an event and the spans of a session's traces, and
// forgets what fell out.
func TestBufferKeepsTheLastSpans(t *testing.T) {
	t.Parallel()
	buf := tracebuffer.New(6)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(buf))
	tr := tp.Tracer("test")
	invocation := func(session, event string) {
		ctx, inv := tr.Start(context.Background(), "invocation")
		_, call := tr.Start(ctx, "call_llm")
		call.SetAttributes(attribute.String("gcp.vertex.agent.session_id", session),
			attribute.String("gcp.vertex.agent.event_id", event))
		call.End()
		_, agent := tr.Start(ctx, "invoke_agent a")
		agent.SetAttributes(attribute.String("gen_ai.conversation.id", session))
		agent.End()
		inv.End()
	}
	invocation("s1", "e1")
	invocation("s2", "e2")
	if sp, ok := buf.Event("e1"); !ok || sp.Name != "call_llm" || tracebuffer.SessionOf(sp) != "s1" {
		t.Fatalf("Event(e1) = %+v, %v", sp, ok)
	}
	got := buf.Session("s1")
	if len(got) != 3 || got[0].Name != "call_llm" || got[2].Name != "invocation" || got[2].Parent.IsValid() ||
		got[0].Parent != got[2].SpanID {
		t.Fatalf("Session(s1) = %+v", got)
	}
	for i := range 3 {
		invocation(fmt.Sprintf("s%d", 3+i), fmt.Sprintf("e%d", 3+i))
	}
	if spans := buf.Session("s1"); len(spans) != 0 {
		t.Errorf("Session(s1) after 15 more spans = %d spans, want none: the buffer holds 6", len(spans))
	}
	if got := buf.Session("s5"); len(got) != 3 {
		t.Errorf("Session(s5) = %d spans, want 3", len(got))
	}
	if _, ok := buf.Event("nope"); ok {
		t.Error("Event(nope) found a span")
	}
}
