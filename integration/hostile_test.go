package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// hostileAgent calls the client's lookup tool when the user says
// CALL_LOOKUP, and is answered with over-deep arguments when the user says
// DEEP_ARGS (see hostileRules).
const hostileAgent = `name: hostile
model: gemini-2.5-flash
description: A target for hostile inputs.
instruction: Answer briefly.
tools:
  - name: lookup
`

var lookupTool = &api.ToolDeclaration{Name: "lookup", Description: "Looks a thing up."}

// deepValue is an object nested n levels deep.
func deepValue(n int) *structpb.Value {
	v := structpb.NewNumberValue(1)
	for range n {
		v = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"k": v}})
	}
	return v
}

// deepJSON is deepValue(n) as JSON text.
func deepJSON(n int) string {
	return strings.Repeat(`{"k":`, n) + "1" + strings.Repeat("}", n)
}

func deepStruct(key string, n int) *structpb.Struct {
	return &structpb.Struct{Fields: map[string]*structpb.Value{key: deepValue(n)}}
}

// hostileTarget is what every case may try to break: a session of a victim
// user with state and history, the app's shared state, and other users.
type hostileTarget struct {
	s    *stack
	user string // the victim, owned by one case
	sid  string
}

// hostileOutcome is how the service answered: a gRPC status or an HTTP
// status with its body.
type hostileOutcome struct {
	code     codes.Code
	httpCode int
	body     string
	// hasErrorInfo: the status, or the REST error body, carries a
	// google.rpc.ErrorInfo of domain agentsvc.
	hasErrorInfo bool
}

func (o hostileOutcome) String() string {
	if o.httpCode != 0 {
		body := o.body
		if len(body) > 300 {
			body = body[:300] + "…"
		}
		return fmt.Sprintf("HTTP %d %s", o.httpCode, body)
	}
	return o.code.String()
}

// hostileCase is one class of input sent to one entry point.
type hostileCase struct {
	name string
	send func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome
	// codes and statuses are the acceptable answers.
	codes    []codes.Code
	statuses []int
	// started: the input arrives after the invocation stored its user
	// message (a model answer, a tool result); then only events nested too
	// deep must be absent.
	started bool
}

func TestHostileInputs(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"memory", "redis", "redis-cluster"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			var extra []string
			switch backend {
			case "redis":
				extra = []string{"--sessions", sharedRedisURL(t)}
			case "redis-cluster":
				extra = []string{"--sessions", sharedRedisClusterURL(t)}
			}
			s := startStack(t, map[string]string{"hostile": hostileAgent}, extra...)
			s.postScript(t, fakegemini.Script{Rules: []fakegemini.Rule{
				{Contains: "CALL_LOOKUP", Item: fakegemini.Item{Response: fakegemini.FunctionCalls(
					fakegemini.Call{Name: "lookup", Args: map[string]any{"q": "x"}})}},
				{Contains: "DEEP_ARGS", Item: fakegemini.Item{Response: json.RawMessage(
					`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"lookup","args":{"q":` +
						deepJSON(80) + `}}}]},"finishReason":"STOP"}]}`)}},
			}})
			run := fmt.Sprintf("%d", time.Now().UnixNano())
			for _, tc := range hostileCases() {
				t.Run(tc.name, func(t *testing.T) {
					ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
					defer cancel()
					h := &hostileTarget{s: s, user: "victim-" + run + "-" + tc.name}
					h.sid = h.prepare(t, ctx)
					before := h.snapshot(t, ctx)

					got := tc.send(t, ctx, h)
					if !acceptable(got, tc) {
						t.Errorf("answer %v, want one of %v / HTTP %v", got, tc.codes, tc.statuses)
					}
					if got.code == codes.Internal || got.code == codes.Unknown || got.httpCode >= 500 {
						t.Errorf("answer %v: a hostile input must never be an internal error", got)
					}
					if !got.hasErrorInfo {
						t.Errorf("answer %v carries no google.rpc.ErrorInfo", got)
					}

					after := h.snapshot(t, ctx)
					if tc.started {
						checkNoDeepEvent(t, after.session)
					} else if diff := before.diff(after); diff != "" {
						t.Errorf("a refused request changed what is stored: %s", diff)
					}
					h.stillServes(t, ctx)
				})
			}
		})
	}
}

func acceptable(o hostileOutcome, tc hostileCase) bool {
	if o.httpCode != 0 {
		for _, c := range tc.statuses {
			if o.httpCode == c {
				return true
			}
		}
		return false
	}
	for _, c := range tc.codes {
		if o.code == c {
			return true
		}
	}
	return false
}

func hostileCases() []hostileCase {
	invalid := []codes.Code{codes.InvalidArgument}
	bad := []int{http.StatusBadRequest}
	var cases []hostileCase
	for _, depth := range []int{65, 20000} {
		d := depth
		cases = append(cases,
			hostileCase{name: fmt.Sprintf("grpc-create-state-%d", d), codes: invalid,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					_, err := h.sessions().CreateSession(ctx, &api.CreateSessionRequest{AppName: "hostile", UserId: h.user,
						State: deepStruct("s", d)})
					return grpcOutcome(err)
				}},
			hostileCase{name: fmt.Sprintf("grpc-patch-app-state-%d", d), codes: invalid,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					_, err := h.sessions().UpdateSessionState(ctx, &api.UpdateSessionStateRequest{AppName: "hostile",
						UserId: h.user, SessionId: h.sid, StateDelta: deepStruct("app:poison", d)})
					return grpcOutcome(err)
				}},
			hostileCase{name: fmt.Sprintf("grpc-run-state-delta-%d", d), codes: invalid,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					req := h.runRequest("hi")
					req.StateDelta = deepStruct("user:poison", d)
					return h.grpcRun(ctx, req)
				}},
			hostileCase{name: fmt.Sprintf("grpc-run-function-response-%d", d), codes: invalid,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					req := h.runRequest("")
					req.NewMessage.Parts = []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Name: "lookup",
						Response: deepStruct("r", d)}}}
					return h.grpcRun(ctx, req)
				}},
			hostileCase{name: fmt.Sprintf("grpc-run-custom-metadata-%d", d), codes: invalid,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					req := h.runRequest("hi")
					req.RunConfig = &api.RunConfig{CustomMetadata: deepStruct("m", d)}
					return h.grpcRun(ctx, req)
				}},
			hostileCase{name: fmt.Sprintf("connect-start-state-delta-%d", d), codes: invalid,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					req := h.runRequest("hi")
					req.StateDelta = deepStruct("poison", d)
					stream := h.connect(t, ctx, req)
					_, err := drain(stream)
					return grpcOutcome(err)
				}},
			hostileCase{name: fmt.Sprintf("rest-create-state-%d", d), statuses: bad,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					return h.rest(t, ctx, "POST", "/apps/hostile/users/"+h.user+"/sessions",
						`{"state":{"s":`+deepJSON(d)+`}}`, nil)
				}},
			hostileCase{name: fmt.Sprintf("rest-patch-app-state-%d", d), statuses: bad,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					return h.rest(t, ctx, "PATCH", "/apps/hostile/users/"+h.user+"/sessions/"+h.sid,
						`{"stateDelta":{"app:poison":`+deepJSON(d)+`}}`, nil)
				}},
			hostileCase{name: fmt.Sprintf("rest-run-state-delta-%d", d), statuses: bad,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					return h.rest(t, ctx, "POST", "/run", h.restRunBody(`"stateDelta":{"s":`+deepJSON(d)+`}`), nil)
				}},
			hostileCase{name: fmt.Sprintf("rest-run-sse-state-delta-%d", d), statuses: bad,
				send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
					return h.rest(t, ctx, "POST", "/run_sse", h.restRunBody(`"stateDelta":{"s":`+deepJSON(d)+`}`), nil)
				}},
		)
	}
	cases = append(cases,
		hostileCase{name: "connect-tool-result-65", codes: invalid, started: true,
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				stream := h.connect(t, ctx, h.runRequest("CALL_LOOKUP"))
				_, calls := until(t, stream, 1)
				answer(t, stream, calls[0].GetCallId(), deepValue(65))
				_, err := drain(stream)
				return grpcOutcome(err)
			}},
		hostileCase{name: "model-function-call-args-80", started: true,
			codes: []codes.Code{codes.InvalidArgument, codes.FailedPrecondition, codes.Unavailable, codes.ResourceExhausted},
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				stream := h.connect(t, ctx, h.runRequest("DEEP_ARGS"))
				_, err := drain(stream)
				return grpcOutcome(err)
			}},
		hostileCase{name: "grpc-user-id-nul", codes: invalid,
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				_, err := h.sessions().CreateSession(ctx, &api.CreateSessionRequest{AppName: "hostile", UserId: h.user + "\x00x"})
				return grpcOutcome(err)
			}},
		hostileCase{name: "grpc-session-id-newline", codes: invalid,
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				_, err := h.sessions().CreateSession(ctx, &api.CreateSessionRequest{AppName: "hostile", UserId: h.user,
					SessionId: "a\nb"})
				return grpcOutcome(err)
			}},
		hostileCase{name: "grpc-app-name-1mb", codes: []codes.Code{codes.InvalidArgument, codes.NotFound},
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				_, err := h.sessions().CreateSession(ctx, &api.CreateSessionRequest{AppName: strings.Repeat("a", 1<<20), UserId: h.user})
				if err != nil && len(status.Convert(err).Message()) > 1024 {
					t.Errorf("the error echoes %d bytes of the request", len(status.Convert(err).Message()))
				}
				return grpcOutcome(err)
			}},
		hostileCase{name: "grpc-unknown-streaming-mode", codes: invalid,
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				req := h.runRequest("hi")
				req.RunConfig = &api.RunConfig{StreamingMode: api.StreamingMode(42)}
				return h.grpcRun(ctx, req)
			}},
		hostileCase{name: "rest-user-id-invalid-utf8", statuses: bad,
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				return h.rest(t, ctx, "POST", "/apps/hostile/users/"+h.user+"%ff/sessions", `{}`, nil)
			}},
		hostileCase{name: "rest-session-id-nul", statuses: bad,
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				return h.rest(t, ctx, "POST", "/apps/hostile/users/"+h.user+"/sessions", `{"sessionId":"a\u0000b"}`, nil)
			}},
		hostileCase{name: "rest-patch-body-over-limit", statuses: []int{http.StatusRequestEntityTooLarge, http.StatusBadRequest},
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				big := `{"stateDelta":{"s":"` + strings.Repeat("x", 20<<20) + `"}}`
				return h.rest(t, ctx, "PATCH", "/apps/hostile/users/"+h.user+"/sessions/"+h.sid, big, nil)
			}},
		hostileCase{name: "rest-run-text-plain-cross-origin", statuses: []int{http.StatusForbidden, http.StatusUnsupportedMediaType},
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				return h.rest(t, ctx, "POST", "/run", h.restRunBody(""), map[string]string{
					"Content-Type": "text/plain", "Origin": "https://evil.example"})
			}},
		hostileCase{name: "rest-run-foreign-origin", statuses: []int{http.StatusForbidden},
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				return h.rest(t, ctx, "POST", "/run", h.restRunBody(""), map[string]string{"Origin": "https://evil.example"})
			}},
		hostileCase{name: "rest-run-rebound-host", statuses: []int{http.StatusForbidden, http.StatusMisdirectedRequest},
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				return h.rest(t, ctx, "POST", "/run", h.restRunBody(""), map[string]string{"Host": "evil.example"})
			}},
		hostileCase{name: "rest-run-unknown-streaming-mode", statuses: bad,
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				return h.rest(t, ctx, "POST", "/run", h.restRunBody(`"runConfig":{"streamingMode":"STREAMING_MODE_BOGUS"}`), nil)
			}},
		hostileCase{name: "rest-wrong-method", statuses: []int{http.StatusMethodNotAllowed},
			send: func(t *testing.T, ctx context.Context, h *hostileTarget) hostileOutcome {
				return h.rest(t, ctx, "PUT", "/apps/hostile/users/"+h.user+"/sessions/"+h.sid, `{}`, nil)
			}},
	)
	return cases
}

func (h *hostileTarget) sessions() api.SessionServiceClient {
	return api.NewSessionServiceClient(h.s.conn)
}

func (h *hostileTarget) runRequest(text string) *api.RunRequest {
	return &api.RunRequest{AppName: "hostile", UserId: h.user, SessionId: h.sid,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}}
}

// restRunBody is ADK's /run body for the victim's session, with extra
// fields.
func (h *hostileTarget) restRunBody(extra string) string {
	body := fmt.Sprintf(`{"appName":"hostile","userId":%q,"sessionId":%q,"newMessage":{"role":"user","parts":[{"text":"hi"}]}`,
		h.user, h.sid)
	if extra != "" {
		body += "," + extra
	}
	return body + "}"
}

// prepare creates the victim's session with state and one answered turn.
func (h *hostileTarget) prepare(t *testing.T, ctx context.Context) string {
	t.Helper()
	created, err := h.sessions().CreateSession(ctx, &api.CreateSessionRequest{AppName: "hostile", UserId: h.user,
		State: mustStruct(map[string]any{"n": 1})})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	h.sid = created.Session.Id
	if o := h.grpcRun(ctx, h.runRequest("hello")); o.code != codes.OK {
		t.Fatalf("first run: %v", o)
	}
	return h.sid
}

func (h *hostileTarget) grpcRun(ctx context.Context, req *api.RunRequest) hostileOutcome {
	stream, err := api.NewRunnerServiceClient(h.s.conn).Run(ctx, req)
	if err != nil {
		return grpcOutcome(err)
	}
	for {
		_, err := stream.Recv()
		if err == io.EOF {
			return hostileOutcome{code: codes.OK}
		}
		if err != nil {
			return grpcOutcome(err)
		}
	}
}

func (h *hostileTarget) connect(t *testing.T, ctx context.Context, req *api.RunRequest) connectStream {
	t.Helper()
	stream, err := api.NewRunnerServiceClient(h.s.conn).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{
		Run: req, Tools: []*api.ToolDeclaration{lookupTool}}}}); err != nil {
		t.Fatal(err)
	}
	return stream
}

func grpcOutcome(err error) hostileOutcome {
	return hostileOutcome{code: status.Code(err), hasErrorInfo: statusReason(err) != ""}
}

// rest sends a request to the REST listener; headers may set Host, Origin
// and Content-Type (default application/json).
func (h *hostileTarget) rest(t *testing.T, ctx context.Context, method, path, body string, headers map[string]string) hostileOutcome {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, h.s.httpURL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	var e struct {
		Details []struct {
			Type   string `json:"@type"`
			Domain string `json:"domain"`
		} `json:"details"`
	}
	info := false
	if json.Unmarshal(b, &e) == nil {
		for _, d := range e.Details {
			info = info || strings.HasSuffix(d.Type, "google.rpc.ErrorInfo") && d.Domain == "agentsvc"
		}
	}
	return hostileOutcome{httpCode: resp.StatusCode, body: string(bytes.TrimSpace(b)), hasErrorInfo: info}
}

// hostileSnapshot is what a refused request must leave as it was.
type hostileSnapshot struct {
	session  *v1.Session
	sessions int
	appState string
}

func (h *hostileTarget) snapshot(t *testing.T, ctx context.Context) hostileSnapshot {
	t.Helper()
	got, err := h.sessions().GetSession(ctx, &api.GetSessionRequest{AppName: "hostile", UserId: h.user, SessionId: h.sid})
	if err != nil {
		t.Fatalf("GetSession of the victim: %v", err)
	}
	list, err := h.sessions().ListSessions(ctx, &api.ListSessionsRequest{AppName: "hostile", UserId: h.user})
	if err != nil {
		t.Fatalf("ListSessions of the victim: %v", err)
	}
	var app []string
	for k, v := range got.GetSession().GetState().GetFields() {
		if strings.HasPrefix(k, "app:") {
			b, _ := protojson.Marshal(v)
			app = append(app, k+"="+string(b))
		}
	}
	return hostileSnapshot{session: got.GetSession(), sessions: len(list.GetSessions()), appState: strings.Join(app, ",")}
}

func (a hostileSnapshot) diff(b hostileSnapshot) string {
	switch {
	case len(a.session.GetEvents()) != len(b.session.GetEvents()):
		return fmt.Sprintf("events %d → %d", len(a.session.GetEvents()), len(b.session.GetEvents()))
	case a.sessions != b.sessions:
		return fmt.Sprintf("sessions %d → %d", a.sessions, b.sessions)
	case a.appState != b.appState:
		return fmt.Sprintf("app state %q → %q", a.appState, b.appState)
	}
	sa, _ := protojson.Marshal(a.session.GetState())
	sb, _ := protojson.Marshal(b.session.GetState())
	if !bytes.Equal(sa, sb) {
		return fmt.Sprintf("state %s → %s", sa, sb)
	}
	return ""
}

// checkNoDeepEvent fails when a stored event holds a value nested more
// than the default cap.
func checkNoDeepEvent(t *testing.T, sess *v1.Session) {
	t.Helper()
	for i, ev := range sess.GetEvents() {
		b, err := protojson.Marshal(ev)
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if depth := jsonDepth(b); depth > 64+8 {
			t.Errorf("event %d is stored with JSON nested %d levels deep", i, depth)
		}
	}
}

// jsonDepth is the deepest nesting of objects and arrays in JSON text.
func jsonDepth(b []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// stillServes checks that another user can create a session and run on it,
// and the victim can still run on its session.
func (h *hostileTarget) stillServes(t *testing.T, ctx context.Context) {
	t.Helper()
	other := &hostileTarget{s: h.s, user: h.user + "-other"}
	other.prepare(t, ctx)
	if o := h.grpcRun(ctx, h.runRequest("still there?")); o.code != codes.OK {
		t.Errorf("the victim's next run: %v", o)
	}
	list, err := h.sessions().ListSessions(ctx, &api.ListSessionsRequest{AppName: "hostile", UserId: other.user})
	if err != nil || len(list.GetSessions()) != 1 {
		t.Errorf("ListSessions of another user: %v, %v", list, err)
	}
}
