package tracebuffer_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

// tracer feeds its spans to buf.
func tracer(buf *tracebuffer.Buffer) trace.Tracer {
	return sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(buf)).Tracer("test")
}

// owner returns the owner attributes the engine sets.
func owner(app, user, session string) trace.SpanStartEventOption {
	return trace.WithAttributes(attribute.String(tracebuffer.AttrApp, app), attribute.String(tracebuffer.AttrUser, user),
		attribute.String(tracebuffer.AttrSession, session))
}

// invocation records the spans of one invocation of app's session of
// user, as the engine makes them, in ctx's trace (a new one when ctx has
// none): invocation > invoke_agent > call_llm (of event) > execute_tool.
func invocation(ctx context.Context, tr trace.Tracer, app, user, session, event string) {
	o := owner(app, user, session)
	ctx, inv := tr.Start(ctx, "invocation", o)
	ctx, agent := tr.Start(ctx, "invoke_agent a", o)
	agent.SetAttributes(attribute.String("gen_ai.conversation.id", session))
	ctx, call := tr.Start(ctx, "call_llm", o)
	call.SetAttributes(attribute.String("gcp.vertex.agent.session_id", session),
		attribute.String("gcp.vertex.agent.event_id", event))
	_, tool := tr.Start(ctx, "execute_tool t", o)
	tool.End()
	call.End()
	agent.End()
	inv.End()
}

func names(spans []tracebuffer.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name+"/"+s.Owner.User)
	}
	return out
}

// TestBufferKeepsTheLastSpans: the buffer keeps the last max spans, finds
// the call span of an event and the spans of a session's traces, and
// forgets what fell out.
func TestBufferKeepsTheLastSpans(t *testing.T) {
	t.Parallel()
	buf := tracebuffer.New(8)
	tr := tracer(buf)
	invocation(t.Context(), tr, "app", "u1", "s1", "e1")
	invocation(t.Context(), tr, "app", "u1", "s2", "e2")
	if sp, ok := buf.Event("app", "u1", "e1"); !ok || sp.Name != "call_llm" || sp.Owner != (tracebuffer.Owner{App: "app", User: "u1", Session: "s1"}) {
		t.Fatalf("Event(e1) = %+v, %v", sp, ok)
	}
	got := buf.Session("app", "u1", "s1")
	if len(got) != 4 || got[0].Name != "execute_tool t" || got[3].Name != "invocation" || got[3].Parent.IsValid() ||
		got[2].Parent != got[3].SpanID {
		t.Fatalf("Session(s1) = %v", names(got))
	}
	for _, sp := range got {
		for _, kv := range sp.Attributes {
			if k := string(kv.Key); k == tracebuffer.AttrApp || k == tracebuffer.AttrUser || k == tracebuffer.AttrSession {
				t.Errorf("span %s keeps owner attribute %s among its attributes", sp.Name, k)
			}
		}
	}
	for i := range 2 {
		invocation(t.Context(), tr, "app", "u1", fmt.Sprintf("s%d", 3+i), fmt.Sprintf("e%d", 3+i))
	}
	if spans := buf.Session("app", "u1", "s1"); len(spans) != 0 {
		t.Errorf("Session(s1) after 8 more spans = %v, want none: the buffer holds 8", names(spans))
	}
	if got := buf.Session("app", "u1", "s4"); len(got) != 4 {
		t.Errorf("Session(s4) = %v, want 4 spans", names(got))
	}
	if _, ok := buf.Event("app", "u1", "nope"); ok {
		t.Error("Event(nope) found a span")
	}
	// A session that runs on while others come and go keeps its last
	// trace, though its first was indexed before theirs.
	buf = tracebuffer.New(8)
	tr = tracer(buf)
	invocation(t.Context(), tr, "app", "u1", "long", "first")
	for i := range 7 {
		invocation(t.Context(), tr, "app", "u1", fmt.Sprintf("short%d", i), "")
	}
	invocation(t.Context(), tr, "app", "u1", "long", "last")
	if got := buf.Session("app", "u1", "long"); len(got) != 4 || got[1].Attributes[1].Value.AsString() != "last" {
		t.Errorf("Session(long) after 7 other sessions = %v, want its last invocation's 4 spans", names(got))
	}
}

// TestBufferKeysByOwner: a session's or an event's spans answer only under
// their app and to their user ("" standing for every user), whatever id
// another user reuses; a trace joined by another user's invocation shows
// each only its own spans.
func TestBufferKeysByOwner(t *testing.T) {
	t.Parallel()
	buf := tracebuffer.New(100)
	tr := tracer(buf)
	invocation(t.Context(), tr, "app", "alice", "s1", "e1")
	invocation(t.Context(), tr, "app", "bob", "s1", "e1")
	invocation(t.Context(), tr, "other", "alice", "s1", "e9")
	// Bob joins alice's trace of session s2, as a caller sending her trace
	// context would, under a request span owned by nobody.
	ctx, req := tr.Start(t.Context(), "POST /run")
	invocation(ctx, tr, "app", "alice", "s2", "e2")
	invocation(ctx, tr, "app", "bob", "s2", "e3")
	req.End()
	// An agent tool's session of alice, in the trace of her session s3.
	ctx, req = tr.Start(t.Context(), "POST /run")
	ctx, inv := tr.Start(ctx, "invocation", owner("app", "alice", "s3"))
	invocation(ctx, tr, "app", "alice", "child", "e4")
	inv.End()
	req.End()

	for _, c := range []struct {
		app, user, session string
		want               []string
	}{
		{"app", "alice", "s1", []string{"execute_tool t/alice", "call_llm/alice", "invoke_agent a/alice", "invocation/alice"}},
		{"app", "bob", "s1", []string{"execute_tool t/bob", "call_llm/bob", "invoke_agent a/bob", "invocation/bob"}},
		{"app", "", "s1", []string{"execute_tool t/alice", "call_llm/alice", "invoke_agent a/alice", "invocation/alice",
			"execute_tool t/bob", "call_llm/bob", "invoke_agent a/bob", "invocation/bob"}},
		{"app", "carol", "s1", nil},
		{"third", "", "s1", nil},
		{"app", "alice", "s2", []string{"execute_tool t/alice", "call_llm/alice", "invoke_agent a/alice", "invocation/alice"}},
		{"app", "bob", "s2", []string{"execute_tool t/bob", "call_llm/bob", "invoke_agent a/bob", "invocation/bob"}},
		{"app", "alice", "s3", []string{"execute_tool t/alice", "call_llm/alice", "invoke_agent a/alice", "invocation/alice",
			"invocation/alice", "POST /run/"}},
		{"app", "bob", "s3", nil},
	} {
		if got := names(buf.Session(c.app, c.user, c.session)); !slices.Equal(got, c.want) {
			t.Errorf("Session(%s, %q, %s) = %v, want %v", c.app, c.user, c.session, got, c.want)
		}
	}
	for _, c := range []struct {
		app, user, event, want string
	}{
		{"app", "alice", "e1", "alice"},
		{"app", "bob", "e1", "bob"},
		{"app", "", "e1", "bob"},
		{"app", "carol", "e1", ""},
		{"other", "alice", "e1", ""},
		{"app", "alice", "e9", ""},
		{"other", "alice", "e9", "alice"},
		{"app", "bob", "e2", ""},
	} {
		sp, ok := buf.Event(c.app, c.user, c.event)
		if got := map[bool]string{true: sp.Owner.User}[ok]; got != c.want {
			t.Errorf("Event(%s, %q, %s) answers %q's span, want %q", c.app, c.user, c.event, got, c.want)
		}
	}
}

// TestBufferIgnoresUnownedIDs: a span naming a session or an event in
// ADK's attributes but no owner is kept, yet answers no lookup.
func TestBufferIgnoresUnownedIDs(t *testing.T) {
	t.Parallel()
	buf := tracebuffer.New(10)
	_, call := tracer(buf).Start(t.Context(), "call_llm")
	call.SetAttributes(attribute.String("gcp.vertex.agent.session_id", "s1"), attribute.String("gcp.vertex.agent.event_id", "e1"))
	call.End()
	if got := buf.Session("app", "", "s1"); len(got) != 0 {
		t.Errorf("Session(s1) = %v, want none", names(got))
	}
	if _, ok := buf.Event("app", "", "e1"); ok {
		t.Error("Event(e1) found an unowned span")
	}
}

// BenchmarkBufferInvocation measures keeping the four spans of one
// invocation in a full buffer of many sessions.
func BenchmarkBufferInvocation(b *testing.B) {
	buf := tracebuffer.New(10000)
	tr := tracer(buf)
	ctx := b.Context()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		invocation(ctx, tr, "app", "u1", fmt.Sprintf("s%d", i%5000), fmt.Sprintf("e%d", i))
	}
}
