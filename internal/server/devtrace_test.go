package server_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
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
	ctx, inv := tr.Start(t.Context(), "invocation")
	_, call := tr.Start(ctx, "call_llm")
	call.SetAttributes(attribute.String("gcp.vertex.agent.session_id", "s1"), attribute.String("gcp.vertex.agent.event_id", "ev1"),
		attribute.Int("gen_ai.usage.input_tokens", 7), attribute.String(tracebuffer.AttrApp, appName),
		attribute.String(tracebuffer.AttrUser, userID), attribute.String(tracebuffer.AttrSession, "s1"))
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
		if attrs["gcp.vertex.agent.event_id"] != "ev1" || attrs["gen_ai.usage.input_tokens"] != 7.0 || attrs["trace_id"] == nil || attrs["span_id"] == nil ||
			attrs[tracebuffer.AttrUser] != nil || attrs[tracebuffer.AttrApp] != nil || attrs[tracebuffer.AttrSession] != nil {
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

// TestTraceTakeoverOverREST: over REST with JWT authentication and the
// engine's own spans (prompt text captured), bob creates a session with
// the id of alice's and reads the trace routes: before and after his own
// run, and with a run joined to alice's trace by her trace context, he
// sees nothing of hers (no event id, no invocation id, no prompt text),
// while she still sees all of hers.
func TestTraceTakeoverOverREST(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	buf := tracebuffer.New(1000)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(buf))
	tel, err := runtime.NewTelemetry(runtime.TelemetryConfig{TracerProvider: tp, MeterProvider: metricnoop.NewMeterProvider(),
		CaptureContent: true})
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, withoutGRPC(), withConfig(func(c *server.Config) {
		c.Authenticator = newJWTAuthenticator(t, key)
		c.Apps[0].Runner.Telemetry = tel
	}))
	// The REST handler joins the caller's trace context, as the service's.
	ts := httptest.NewServer(otelhttp.NewHandler(fx.handler(t, server.WithTraces(buf)), "rest",
		otelhttp.WithTracerProvider(tp), otelhttp.WithPropagators(propagation.TraceContext{})))
	t.Cleanup(ts.Close)
	s := &restStack{fixture: fx, http: ts}
	alice, bob := key.Token(t, "alice", nil), key.Token(t, "bob", nil)
	call := func(token, method, path, body string, header ...string) reply {
		t.Helper()
		h := map[string]string{"Authorization": "Bearer " + token}
		for i := 0; i+1 < len(header); i += 2 {
			h[header[i]] = header[i+1]
		}
		return s.do(t, request{method: method, path: path, body: body, header: h})
	}
	run := func(token, user, text string, header ...string) []map[string]any {
		t.Helper()
		fx.model.Enqueue(et.Text("Noted: " + text))
		body := `{"appName":"desk","userId":"` + user + `","sessionId":"s1","newMessage":{"role":"user","parts":[{"text":"` + text + `"}]}}`
		rep := call(token, "POST", "/run", body, header...)
		var events []map[string]any
		if err := json.Unmarshal([]byte(rep.body), &events); rep.status != 200 || err != nil || len(events) == 0 {
			t.Fatalf("%s's run: %d %s", user, rep.status, rep.body)
		}
		return events
	}
	sessionTrace := func(token string) (string, []map[string]any) {
		t.Helper()
		rep := call(token, "GET", "/dev/apps/desk/debug/trace/session/s1", "")
		var spans []map[string]any
		dec := json.NewDecoder(strings.NewReader(rep.body))
		dec.UseNumber() // trace ids are 128-bit integers
		if err := dec.Decode(&spans); rep.status != 200 || err != nil {
			t.Fatalf("session trace: %d %s", rep.status, rep.body)
		}
		return rep.body, spans
	}

	if rep := call(alice, "POST", "/apps/desk/users/alice/sessions", `{"sessionId":"s1"}`); rep.status != 200 {
		t.Fatalf("alice's session: %d %s", rep.status, rep.body)
	}
	const secret = "my card number is 4111"
	events := run(alice, "alice", secret)
	aliceEvent, aliceInvocation := events[len(events)-1]["id"].(string), events[len(events)-1]["invocationId"].(string)
	body, spans := sessionTrace(alice)
	if !strings.Contains(body, secret) || !strings.Contains(body, aliceEvent) || !strings.Contains(body, aliceInvocation) {
		t.Fatalf("alice's own session trace lacks her run: %s", body)
	}
	var aliceTrace string
	for _, sp := range spans {
		if sp["name"] == "invocation" {
			aliceTrace = string(sp["trace_id"].(json.Number))
		}
	}
	traceID, ok := new(big.Int).SetString(aliceTrace, 10)
	if !ok {
		t.Fatalf("alice's invocation span has no trace id: %s", body)
	}
	if rep := call(alice, "GET", "/dev/apps/desk/debug/trace/"+aliceEvent, ""); rep.status != 200 || !strings.Contains(rep.body, secret) {
		t.Fatalf("alice's event trace: %d %s", rep.status, rep.body)
	}

	seesNothingOfAlice := func(when string) {
		t.Helper()
		body, _ := sessionTrace(bob)
		for _, leak := range []string{secret, aliceEvent, aliceInvocation} {
			if strings.Contains(body, leak) {
				t.Errorf("%s, bob's session trace holds alice's %q: %s", when, leak, body)
			}
		}
		if rep := call(bob, "GET", "/dev/apps/desk/debug/trace/"+aliceEvent, ""); rep.status != 404 || rep.err.reason() != "TRACE_NOT_FOUND" {
			t.Errorf("%s, bob reads alice's event trace: %d %s", when, rep.status, rep.body)
		}
	}
	if rep := call(bob, "POST", "/apps/desk/users/bob/sessions", `{"sessionId":"s1"}`); rep.status != 200 {
		t.Fatalf("bob's session s1: %d %s", rep.status, rep.body)
	}
	seesNothingOfAlice("with a session of alice's id")
	if body, _ := sessionTrace(bob); body != "[]\n" {
		t.Errorf("bob's session trace before he ran = %s, want []", body)
	}
	run(bob, "bob", "bob was here")
	seesNothingOfAlice("after his own run")
	parent := fmt.Sprintf("00-%032x-00f067aa0ba902b7-01", traceID)
	run(bob, "bob", "bob again", "traceparent", parent)
	seesNothingOfAlice("after a run in alice's trace")
	// In the trace bob joined, he sees his own spans only: not alice's
	// request span, nor his, which the trace's owners share.
	_, spans = sessionTrace(bob)
	var inAliceTrace []string
	for _, sp := range spans {
		if string(sp["trace_id"].(json.Number)) == aliceTrace {
			inAliceTrace = append(inAliceTrace, sp["name"].(string))
		}
	}
	if want := []string{"call_llm", "invoke_agent desk_agent", "invocation"}; !slices.Equal(inAliceTrace, want) {
		t.Errorf("bob's spans in alice's trace = %v, want %v", inAliceTrace, want)
	}
	if body, _ := sessionTrace(bob); !strings.Contains(body, "bob again") || !strings.Contains(body, "bob was here") {
		t.Errorf("bob's session trace lacks his own runs: %s", body)
	}
	if body, _ := sessionTrace(alice); !strings.Contains(body, secret) || strings.Contains(body, "bob") {
		t.Errorf("alice's session trace after bob's runs: %s", body)
	}
}
