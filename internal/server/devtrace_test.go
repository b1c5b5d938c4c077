package server_test

import (
	"context"
	"encoding/json"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

// TestTraceRoutes: with WithTraces, the dev UI's trace routes answer ADK's
// shapes from the kept spans, a session's only to its user or an admin;
// another user's reads as no trace, whether or not it exists.
func TestTraceRoutes(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	a := newJWTAuthenticator(t, key)
	buf := tracebuffer.New(100)
	tr := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(buf)).Tracer("test")
	ctx, inv := tr.Start(context.Background(), "invocation")
	_, call := tr.Start(ctx, "call_llm")
	call.SetAttributes(attribute.String("gcp.vertex.agent.session_id", "s1"), attribute.String("gcp.vertex.agent.event_id", "ev1"),
		attribute.Int("gen_ai.usage.input_tokens", 7))
	call.End()
	inv.End()

	fx := newFixture(t, withoutGRPC(), withConfig(func(c *server.Config) { c.Authenticator = a }))
	s := &restStack{fixture: fx, http: fx.serveHTTP(t, server.WithTraces(buf))}
	if _, err := fx.store.Create(t.Context(), sessions.CreateRequest{AppName: appName, UserID: userID, SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	get := func(path, token string) reply {
		return s.do(t, request{method: "GET", path: path, header: map[string]string{"Authorization": "Bearer " + token}})
	}
	own, other, admin := key.Token(t, userID, nil), key.Token(t, "u2", nil), key.Token(t, "ops", map[string]any{"scope": adminScope})

	for _, token := range []string{own, admin} {
		rep := get("/dev/apps/desk/debug/trace/ev1", token)
		var attrs map[string]any
		if err := json.Unmarshal([]byte(rep.body), &attrs); rep.status != 200 || err != nil {
			t.Fatalf("event trace: %d %s", rep.status, rep.body)
		}
		if attrs["gcp.vertex.agent.event_id"] != "ev1" || attrs["gen_ai.usage.input_tokens"] != 7.0 || attrs["trace_id"] == nil || attrs["span_id"] == nil {
			t.Errorf("event trace = %v", attrs)
		}
		rep = get("/dev/apps/desk/debug/trace/session/s1", token)
		var spans []map[string]any
		if err := json.Unmarshal([]byte(rep.body), &spans); rep.status != 200 || err != nil || len(spans) != 2 {
			t.Fatalf("session trace: %d %s", rep.status, rep.body)
		}
		if spans[0]["name"] != "call_llm" || spans[1]["name"] != "invocation" || spans[1]["parent_span_id"] != nil ||
			spans[0]["parent_span_id"] == nil || spans[0]["logs"] == nil || spans[0]["start_time"] == nil {
			t.Errorf("session trace = %s", rep.body)
		}
	}
	if rep := get("/dev/apps/desk/debug/trace/ev1", other); rep.status != 404 || rep.err.reason() != "TRACE_NOT_FOUND" {
		t.Errorf("another user's event trace: %d %s, want 404", rep.status, rep.body)
	}
	for _, sid := range []string{"s1", "nope"} {
		if rep := get("/dev/apps/desk/debug/trace/session/"+sid, other); rep.status != 200 || rep.body != "[]\n" {
			t.Errorf("another user's session trace %s: %d %s, want []", sid, rep.status, rep.body)
		}
	}
	if rep := s.do(t, request{method: "GET", path: "/dev/apps/desk/debug/trace/session/s1"}); rep.status != 401 {
		t.Errorf("without a token: %d, want 401", rep.status)
	}
}
