package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/server"
)

// logLines collects the JSON lines of a logger, safe for concurrent use.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// lines decodes every line logged so far.
func (l *logLines) lines(t *testing.T) []map[string]any {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(l.buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// observed is a fixture served with the server's request interceptors,
// whose debug log and audit log are captured.
type observed struct {
	*fixture
	logs, audit *logLines
	http        http.Handler
}

// testIdentity stands for the authentication interceptors that follow the
// request ones: x-test-user authenticates a caller, x-test-deny refuses
// the call.
func testIdentity(ctx context.Context) (context.Context, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if len(md.Get("x-test-deny")) > 0 {
		return nil, status.Error(codes.Unauthenticated, "no token")
	}
	if u := md.Get("x-test-user"); len(u) > 0 {
		return auth.WithIdentity(ctx, &auth.Identity{Subject: u[0], Method: "jwt", Admin: u[0] == "root"}), nil
	}
	return ctx, nil
}

type identityStream struct {
	grpc.ServerStream
	ctx context.Context //nolint:containedctx // a stream interceptor replaces a stream's context by wrapping it.
}

func (s identityStream) Context() context.Context { return s.ctx }

func newObserved(t *testing.T, opts ...fixtureOption) *observed {
	t.Helper()
	o := &observed{logs: &logLines{}, audit: &logLines{}}
	opts = append(opts, withoutGRPC(), withConfig(func(cfg *server.Config) {
		cfg.Logger = slog.New(server.LogHandler(slog.NewJSONHandler(o.logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
		cfg.AuditLogger = slog.New(slog.NewJSONHandler(o.audit, nil))
	}))
	o.fixture = newFixture(t, opts...)
	serverOpts := append(o.srv.RequestOptions(),
		grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			ctx, err := testIdentity(ctx)
			if err != nil {
				return nil, err
			}
			return h(ctx, req)
		}),
		grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
			ctx, err := testIdentity(ss.Context())
			if err != nil {
				return err
			}
			return h(srv, identityStream{ss, ctx})
		}))
	o.conn = serveGRPC(t, o.srv, serverOpts)
	o.runner = api.NewRunnerServiceClient(o.conn)
	o.sessions = api.NewSessionServiceClient(o.conn)
	o.http = o.handler(t)
	return o
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// checkRequestID fails t unless got is sent (when sent is kept) or a new
// UUID (when it is not).
func checkRequestID(t *testing.T, what, sent, got string, kept bool) {
	t.Helper()
	switch {
	case kept && got != sent:
		t.Errorf("%s: request id %q, want the caller's %q", what, got, sent)
	case !kept && !uuidPattern.MatchString(got):
		t.Errorf("%s: request id %q, want a new UUID in place of %q", what, got, sent)
	}
}

var requestIDCases = []struct {
	name, sent string
	kept       bool
}{
	{"absent", "", false},
	{"the caller's", "req-42 from ci", true},
	{"the longest", strings.Repeat("x", 128), true},
	{"too long", strings.Repeat("x", 129), false},
}

// TestRequestIDOverGRPC: every call, unary or streaming, successful or
// not, answers the x-request-id header: the caller's when it is 1 to 128
// printable ASCII characters, a new UUID otherwise.
func TestRequestIDOverGRPC(t *testing.T) {
	t.Parallel()
	o := newObserved(t)
	ctx := testContext(t)
	sid := (&stack{o.fixture}).newSession(t, ctx)
	for _, tc := range requestIDCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t) // the parent's may run out while this waits for a slot
			cctx := ctx
			if tc.sent != "" {
				cctx = metadata.AppendToOutgoingContext(ctx, "x-request-id", tc.sent)
			}
			var header metadata.MD
			if _, err := o.sessions.GetSession(cctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid}, grpc.Header(&header)); err != nil {
				t.Fatal(err)
			}
			checkRequestID(t, "GetSession", tc.sent, first(header.Get("x-request-id")), tc.kept)
			header = nil
			_, err := o.sessions.GetSession(cctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: "missing"}, grpc.Header(&header))
			if status.Code(err) != codes.NotFound {
				t.Fatalf("GetSession of a missing session: %v", err)
			}
			checkRequestID(t, "GetSession NOT_FOUND", tc.sent, first(header.Get("x-request-id")), tc.kept)
			stream, err := o.runner.Run(cctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: "missing",
				NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "hi"}}}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := stream.Recv(); status.Code(err) != codes.NotFound {
				t.Fatalf("Run in a missing session: %v", err)
			}
			header, _ = stream.Header()
			checkRequestID(t, "Run", tc.sent, first(header.Get("x-request-id")), tc.kept)
		})
	}
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

// TestRequestIDOverREST: every REST answer, an error of the guard in front
// of the routes included, carries X-Request-Id, the caller's or a new one.
func TestRequestIDOverREST(t *testing.T) {
	t.Parallel()
	o := newObserved(t)
	cases := append(requestIDCases[:len(requestIDCases):len(requestIDCases)],
		struct {
			name, sent string
			kept       bool
		}{"control character", "a\x01b", false},
		struct {
			name, sent string
			kept       bool
		}{"not ASCII", "caf\xc3\xa9", false},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, r := range []struct{ method, path, body, ctype string }{
				{"GET", "/apps/desk/users/u1/sessions", "", ""},
				{"POST", "/run", "x=1", "application/x-www-form-urlencoded"}, // 415
			} {
				req := httptest.NewRequestWithContext(t.Context(), r.method, "http://127.0.0.1"+r.path, strings.NewReader(r.body))
				if r.ctype != "" {
					req.Header.Set("Content-Type", r.ctype)
				}
				if tc.sent != "" {
					req.Header["X-Request-Id"] = []string{tc.sent}
				}
				w := httptest.NewRecorder()
				o.http.ServeHTTP(w, req)
				checkRequestID(t, r.method+" "+r.path, tc.sent, w.Header().Get("X-Request-Id"), tc.kept)
			}
		})
	}
}

// TestLogLinesCarryRequestIDs: a line logged while serving a request
// carries its request id, and a run's own request_id as run_request_id.
func TestLogLinesCarryRequestIDs(t *testing.T) {
	t.Parallel()
	o := newObserved(t)
	ctx := testContext(t)
	s := &stack{o.fixture}
	modelErr := &models.Error{HTTPStatus: 429, Status: "RESOURCE_EXHAUSTED", Message: "quota"}
	o.model.Push(scripted.Fail(modelErr), scripted.Fail(modelErr))

	grpcSID := s.newSession(t, ctx)
	cctx := metadata.AppendToOutgoingContext(ctx, "x-request-id", "grpc-run-1")
	stream, err := o.runner.Run(cctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: grpcSID,
		RequestId: "idem-1", NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "hi"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = stream.Recv()
	}
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("Run: %v, want the model's RESOURCE_EXHAUSTED", err)
	}

	restSID := s.newSession(t, ctx)
	body, _ := json.Marshal(map[string]any{"appName": appName, "userId": userID, "sessionId": restSID,
		"requestId": "idem-2", "newMessage": map[string]any{"parts": []any{map[string]any{"text": "hi"}}}})
	req := httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1/run", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Request-Id", "rest-run-1")
	w := httptest.NewRecorder()
	o.http.ServeHTTP(w, req)
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("POST /run: %d %s, want the model's 429", w.Code, w.Body)
	}
	o.waitIdle(t)

	want := map[string]string{"grpc-run-1": "idem-1", "rest-run-1": "idem-2"}
	for _, line := range o.logs.lines(t) {
		if line["msg"] != "model call failed" {
			continue
		}
		id, _ := line["request_id"].(string)
		if runID, ok := want[id]; ok && line["run_request_id"] == runID {
			delete(want, id)
		}
	}
	if len(want) > 0 {
		t.Errorf("no 'model call failed' line with request_id and run_request_id %v in:\n%s", want, o.logs)
	}
}

// TestLogHandlerWithoutRequest: a record logged outside of a request
// passes through unchanged.
func TestLogHandlerWithoutRequest(t *testing.T) {
	t.Parallel()
	var buf logLines
	log := slog.New(server.LogHandler(slog.NewJSONHandler(&buf, nil))).With("k", "v")
	log.InfoContext(t.Context(), "hello")
	lines := buf.lines(t)
	if len(lines) != 1 || lines[0]["k"] != "v" || lines[0]["request_id"] != nil {
		t.Errorf("logged %v, want one line with k=v and no request_id", lines)
	}
}
