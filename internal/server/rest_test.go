package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// restStack is the REST handler of a server running the desk app on a
// scripted model, over a real HTTP server, with the store it writes to.
type restStack struct {
	*fixture
	http *httptest.Server
}

func newRESTStack(t *testing.T, opts ...server.HTTPOption) *restStack {
	t.Helper()
	return newRESTStackWith(t, nil, opts...)
}

// newRESTStackWith is newRESTStack with the server's configuration changed
// by configure, when not nil.
func newRESTStackWith(t *testing.T, configure func(*server.Config), opts ...server.HTTPOption) *restStack {
	t.Helper()
	fopts := []fixtureOption{withoutGRPC()}
	if configure != nil {
		fopts = append(fopts, withConfig(configure))
	}
	fx := newFixture(t, fopts...)
	return &restStack{fixture: fx, http: fx.serveHTTP(t, opts...)}
}

// session creates a session of userID with id sid and state city=Paris.
func (s *restStack) session(t *testing.T, sid string) {
	t.Helper()
	st, _ := structpb.NewStruct(map[string]any{"city": "Paris"})
	if _, err := s.store.Create(t.Context(), sessions.CreateRequest{AppName: appName, UserID: userID, SessionID: sid, State: st}); err != nil {
		t.Fatal(err)
	}
}

// snapshot renders what the store holds for user: each session's id, state
// and events.
func (s *restStack) snapshot(t *testing.T, user string) string {
	t.Helper()
	list, err := s.store.List(t.Context(), appName, user)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range list {
		sess, err := s.store.Get(t.Context(), sessions.GetRequest{AppName: appName, UserID: user, SessionID: l.Id})
		if err != nil {
			t.Fatal(err)
		}
		st, _ := json.Marshal(sess.State.AsMap())
		b.WriteString(sess.Id + " " + string(st) + " [" + strings.Join(et.Events(sess.Events), " | ") + "]\n")
	}
	return b.String()
}

// request is one REST call.
type request struct {
	method, path, body string
	header             map[string]string
}

// reply is a REST answer, with the gateway's error body decoded.
type reply struct {
	status int
	header http.Header
	body   string
	err    restError
}

// restError is grpc-gateway's error body.
type restError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Details []struct {
		Type   string `json:"@type"`
		Reason string `json:"reason"`
		Domain string `json:"domain"`
	} `json:"details"`
}

// reason is the ErrorInfo reason of the error, "" when it has none from
// the agentsvc domain.
func (e restError) reason() string {
	for _, d := range e.Details {
		if d.Type == "type.googleapis.com/google.rpc.ErrorInfo" && d.Domain == "agentsvc" {
			return d.Reason
		}
	}
	return ""
}

func (s *restStack) do(t *testing.T, r request) reply {
	t.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(t.Context(), r.method, s.http.URL+r.path, body)
	if err != nil {
		t.Fatal(err)
	}
	if r.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range r.header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := s.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out := reply{status: resp.StatusCode, header: resp.Header, body: string(b)}
	if resp.StatusCode >= 400 {
		if err := json.Unmarshal(b, &out.err); err != nil {
			t.Errorf("%s %s: error body %q is not the gateway's: %v", r.method, r.path, b, err)
		}
	}
	return out
}

// runBody is ADK's /run body for text in session sid.
func runBody(sid, text string) string {
	b, _ := json.Marshal(map[string]any{"appName": appName, "userId": userID, "sessionId": sid,
		"newMessage": map[string]any{"role": "user", "parts": []any{map[string]any{"text": text}}}})
	return string(b)
}

// TestRESTErrorsCarryErrorInfo: every REST error, whoever raises it, has
// the gateway's body with an ErrorInfo of domain agentsvc; a known path
// with another method is 405 with Allow, not 501.
func TestRESTErrorsCarryErrorInfo(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	s.session(t, "s1")
	before := s.snapshot(t, userID)
	sessionPath := "/apps/desk/users/u1/sessions/s1"
	for _, c := range []struct {
		name   string
		req    request
		status int
		code   int
		reason string
		allow  string
	}{
		{"unknown path", request{method: "GET", path: "/nowhere"}, 404, 5, "ROUTE_NOT_FOUND", ""},
		{"wrong method on session", request{method: "PUT", path: sessionPath}, 405, 12, "METHOD_NOT_ALLOWED", "DELETE, GET, PATCH"},
		{"wrong method on run", request{method: "GET", path: "/run"}, 405, 12, "METHOD_NOT_ALLOWED", "POST"},
		{"wrong method on list-apps", request{method: "DELETE", path: "/list-apps"}, 405, 12, "METHOD_NOT_ALLOWED", "GET"},
		{"malformed session body", request{method: "PATCH", path: sessionPath, body: `{"stateDelta": [`}, 400, 3, "INVALID_ARGUMENT", ""},
		{"malformed run body", request{method: "POST", path: "/run", body: `{"appName": `}, 400, 3, "INVALID_ARGUMENT", ""},
		{"unknown session", request{method: "GET", path: "/apps/desk/users/u1/sessions/nope"}, 404, 5, "SESSION_NOT_FOUND", ""},
		{"unknown app", request{method: "GET", path: "/apps/nope/users/u1/sessions"}, 404, 5, "APP_NOT_FOUND", ""},
		{"unknown streaming mode name", request{method: "POST", path: "/run",
			body: strings.TrimSuffix(runBody("s1", "hi"), "}") + `,"runConfig":{"streamingMode":"STREAMING_MODE_BIDI"}}`}, 400, 3, "INVALID_ARGUMENT", ""},
		{"unknown streaming mode number", request{method: "POST", path: "/run_sse",
			body: strings.TrimSuffix(runBody("s1", "hi"), "}") + `,"run_config":{"streaming_mode":7}}`}, 400, 3, "INVALID_ARGUMENT", ""},
		{"long app name", request{method: "GET", path: "/apps/" + strings.Repeat("a", 1<<16) + "/users/u1/sessions"}, 400, 3, "INVALID_ARGUMENT", ""},
		{"bad app name", request{method: "GET", path: "/apps/" + strings.Repeat("é", 1<<12) + "/users/u1/sessions"}, 400, 3, "INVALID_ARGUMENT", ""},
	} {
		got := s.do(t, c.req)
		if got.status != c.status || got.err.Code != c.code || got.err.reason() != c.reason {
			t.Errorf("%s: %d %+v, want %d code %d reason %s", c.name, got.status, got.err, c.status, c.code, c.reason)
		}
		if allow := got.header.Get("Allow"); allow != c.allow {
			t.Errorf("%s: Allow %q, want %q", c.name, allow, c.allow)
		}
		if len(got.err.Message) > 200 {
			t.Errorf("%s: message of %d bytes echoes the request", c.name, len(got.err.Message))
		}
	}
	if after := s.snapshot(t, userID); after != before {
		t.Errorf("the store changed:\n%s\nwant\n%s", after, before)
	}
	if n := len(s.model.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}

// TestRESTKnownStreamingModes: the modes that exist, by name or number,
// still run.
func TestRESTKnownStreamingModes(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	s.session(t, "s1")
	for _, mode := range []string{`"STREAMING_MODE_NONE"`, `"STREAMING_MODE_SSE"`, `0`, `null`} {
		s.model.Enqueue(et.Text("ok"))
		got := s.do(t, request{method: "POST", path: "/run",
			body: strings.TrimSuffix(runBody("s1", "hi"), "}") + `,"runConfig":{"streamingMode":` + mode + `}}`})
		if got.status != 200 {
			t.Errorf("streamingMode %s: %d %s", mode, got.status, got.body)
		}
	}
}

// TestGRPCUnknownStreamingMode: an enum number no mode has is
// INVALID_ARGUMENT on gRPC too, and runs nothing.
func TestGRPCUnknownStreamingMode(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newStack(t, 0)
	sid := s.newSession(t, ctx)
	stream, err := s.runner.Run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: et.UserText("hi"), RunConfig: &api.RunConfig{StreamingMode: api.StreamingMode(7)}})
	if err == nil {
		_, err = stream.Recv()
	}
	assertInvalid(t, err, "run_config.streaming_mode")
	if got := s.storedEvents(t, ctx, sid); len(got) != 0 {
		t.Errorf("stored %q", got)
	}
}
