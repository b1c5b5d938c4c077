package server_test

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/memory/inmemory"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
	"github.com/agentsvc/agentsvc/internal/tlsconfig/tlstest"
	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

const adminScope = "agentsvc.admin"

// callCountingStore is a session store that counts every read and write.
type callCountingStore struct {
	sessions.Service
	calls atomic.Int64
}

func (c *callCountingStore) Create(ctx context.Context, req sessions.CreateRequest) (*v1.Session, error) {
	c.calls.Add(1)
	return c.Service.Create(ctx, req)
}

func (c *callCountingStore) Get(ctx context.Context, req sessions.GetRequest) (*v1.Session, error) {
	c.calls.Add(1)
	return c.Service.Get(ctx, req)
}

func (c *callCountingStore) GetPage(ctx context.Context, req sessions.GetRequest, page sessions.PageRequest) (*v1.Session, sessions.Cursor, error) {
	c.calls.Add(1)
	return c.Service.GetPage(ctx, req, page)
}

func (c *callCountingStore) List(ctx context.Context, app, user string) ([]*v1.Session, error) {
	c.calls.Add(1)
	return c.Service.List(ctx, app, user)
}

func (c *callCountingStore) Delete(ctx context.Context, app, user, session string) error {
	c.calls.Add(1)
	return c.Service.Delete(ctx, app, user, session)
}

func (c *callCountingStore) AppendEvent(ctx context.Context, sess *v1.Session, ev *v1.Event) error {
	c.calls.Add(1)
	return c.Service.AppendEvent(ctx, sess, ev)
}

func (c *callCountingStore) Lease(ctx context.Context, app, user, session, owner string, ttl time.Duration) (sessions.Lease, error) {
	c.calls.Add(1)
	return c.Service.Lease(ctx, app, user, session, owner, ttl)
}

// newJWTAuthenticator authenticates tokens of key, issued by
// authtest.Issuer for authtest.Audience, with adminScope as admin scope.
func newJWTAuthenticator(t testing.TB, key *authtest.Key) *auth.Authenticator {
	t.Helper()
	a, err := auth.New(t.Context(), auth.Config{JWT: true,
		JWKSFile: tlstest.WriteFile(t, t.TempDir(), "jwks.json", authtest.JWKS(t, key)),
		Issuer:   authtest.Issuer, Audience: authtest.Audience, AdminScope: adminScope,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// authStack is the desk app served with authentication over gRPC (every
// service, health included) and REST, on a store that counts its calls.
// The store holds session s1 of u1, with state city=Paris and one
// invocation, inv1, and u2 a session of the same id; the count starts
// after them. The trace routes serve the spans of authzTraces.
type authStack struct {
	*restStack
	counted *callCountingStore
	traces  *tracebuffer.Buffer // served on the trace routes
	apps    api.AppServiceClient
	health  healthpb.HealthClient
}

func newAuthStack(t *testing.T, a *auth.Authenticator, opts ...grpc.ServerOption) *authStack {
	t.Helper()
	store := &callCountingStore{Service: memory.New()}
	fx := newFixture(t, withStore(store), withoutGRPC(), withConfig(func(c *server.Config) {
		c.Authenticator = a
		c.Memory = inmemory.New()
		c.Artifacts = authzArtifacts(t)
	}))
	conn := serveAllGRPC(t, fx.srv, append(server.AuthOptions(a, nil), opts...))
	fx.conn, fx.runner, fx.sessions = conn, api.NewRunnerServiceClient(conn), api.NewSessionServiceClient(conn)
	traces := authzTraces()
	s := &authStack{restStack: &restStack{fixture: fx, http: fx.serveHTTP(t, server.WithTraces(traces))}, counted: store, traces: traces,
		apps: api.NewAppServiceClient(conn), health: healthpb.NewHealthClient(conn)}
	s.session(t, "s1")
	sess, err := store.Get(t.Context(), sessions.GetRequest{AppName: appName, UserID: userID, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	ev := &v1.Event{InvocationId: "inv1", Author: "user", Content: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "hi"}}}}
	if err := store.AppendEvent(t.Context(), sess, ev); err != nil {
		t.Fatal(err)
	}
	// u2 holds a session of u1's id, as a user taking over ids would.
	if _, err := store.Create(t.Context(), sessions.CreateRequest{AppName: appName, UserID: "u2", SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	store.calls.Store(0)
	return s
}

// serveAllGRPC serves srv's three services and health over bufconn.
func serveAllGRPC(t *testing.T, srv *server.Server, opts []grpc.ServerOption) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer(opts...)
	api.RegisterRunnerServiceServer(gs, srv)
	api.RegisterSessionServiceServer(gs, srv)
	api.RegisterAppServiceServer(gs, srv)
	api.RegisterArtifactServiceServer(gs, srv)
	healthpb.RegisterHealthServer(gs, health.NewServer())
	served := make(chan struct{})
	go func() { _ = gs.Serve(lis); close(served) }()
	conn, err := grpc.NewClient("passthrough:///bufconn",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		gs.Stop()
		<-served
	})
	return conn
}

// caller is who calls, with the outcome the contract gives its calls
// that name user u1.
type caller struct {
	name  string
	token string // "" sends no authorization
	// code and reason answer a call naming u1; the calls that name no user
	// are OK unless code is UNAUTHENTICATED.
	code   codes.Code
	reason string
}

func callers(t *testing.T, key *authtest.Key) []caller {
	forged := authtest.NewKey(t, key.ID)
	return []caller{
		{"no token", "", codes.Unauthenticated, auth.ReasonUnauthenticated},
		{"bad signature", forged.Token(t, userID, nil), codes.Unauthenticated, auth.ReasonTokenInvalid},
		{"expired", key.Token(t, userID, map[string]any{"exp": time.Now().Add(-time.Hour).Unix()}), codes.Unauthenticated, auth.ReasonTokenExpired},
		{"wrong audience", key.Token(t, userID, map[string]any{"aud": "another-service"}), codes.Unauthenticated, auth.ReasonTokenInvalid},
		{"wrong issuer", key.Token(t, userID, map[string]any{"iss": "https://elsewhere.test"}), codes.Unauthenticated, auth.ReasonTokenInvalid},
		{"another user", key.Token(t, "u2", nil), codes.PermissionDenied, "PERMISSION_DENIED"},
		{"another user with another scope", key.Token(t, "u2", map[string]any{"scope": "agentsvc.read"}), codes.PermissionDenied, "PERMISSION_DENIED"},
		{"own", key.Token(t, userID, nil), codes.OK, ""},
		{"admin", key.Token(t, "ops", map[string]any{"scope": "openid " + adminScope}), codes.OK, ""},
	}
}

func withToken(ctx context.Context, token string) context.Context {
	if token == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

// drain reads a server stream to its end.
func drain[T any](stream interface{ Recv() (T, error) }) error {
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

func authRunRequest() *api.RunRequest {
	return &api.RunRequest{AppName: appName, UserId: userID, SessionId: "s1",
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "hello"}}}}
}

// grpcCalls are every RPC of the three services, each naming u1 where it
// names a user.
var grpcCalls = []struct {
	method    string
	namesUser bool
	call      func(ctx context.Context, s *authStack) error
}{
	{"RunnerService/Run", true, func(ctx context.Context, s *authStack) error {
		stream, err := s.runner.Run(ctx, authRunRequest())
		if err != nil {
			return err
		}
		return drain[*api.RunResponse](stream)
	}},
	{"RunnerService/Connect", true, func(ctx context.Context, s *authStack) error {
		stream, err := s.runner.Connect(ctx)
		if err != nil {
			return err
		}
		// A refused stream may be closed before the start message goes:
		// Send then says io.EOF, and the status comes with Recv.
		if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{Run: authRunRequest()}}}); err != nil && err != io.EOF {
			return err
		}
		return drain[*api.ConnectResponse](stream)
	}},
	{"SessionService/CreateSession", true, func(ctx context.Context, s *authStack) error {
		_, err := s.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID, SessionId: "s2"})
		return err
	}},
	{"SessionService/GetSession", true, func(ctx context.Context, s *authStack) error {
		_, err := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: "s1"})
		return err
	}},
	{"SessionService/ListSessions", true, func(ctx context.Context, s *authStack) error {
		_, err := s.sessions.ListSessions(ctx, &api.ListSessionsRequest{AppName: appName, UserId: userID})
		return err
	}},
	{"SessionService/DeleteSession", true, func(ctx context.Context, s *authStack) error {
		_, err := s.sessions.DeleteSession(ctx, &api.DeleteSessionRequest{AppName: appName, UserId: userID, SessionId: "s1"})
		return err
	}},
	{"SessionService/AddSessionToMemory", true, func(ctx context.Context, s *authStack) error {
		_, err := s.sessions.AddSessionToMemory(ctx, &api.AddSessionToMemoryRequest{AppName: appName, UserId: userID, SessionId: "s1"})
		return err
	}},
	{"SessionService/SearchMemory", true, func(ctx context.Context, s *authStack) error {
		_, err := s.sessions.SearchMemory(ctx, &api.SearchMemoryRequest{AppName: appName, UserId: userID, Query: "cat"})
		return err
	}},
	{"SessionService/UpdateSessionState", true, func(ctx context.Context, s *authStack) error {
		delta, _ := structpb.NewStruct(map[string]any{"k": "v"})
		_, err := s.sessions.UpdateSessionState(ctx, &api.UpdateSessionStateRequest{AppName: appName, UserId: userID, SessionId: "s1", StateDelta: delta})
		return err
	}},
	{"SessionService/RewindSession", true, func(ctx context.Context, s *authStack) error {
		_, err := s.sessions.RewindSession(ctx, &api.RewindSessionRequest{AppName: appName, UserId: userID, SessionId: "s1", RewindBeforeInvocationId: "inv1"})
		return err
	}},
	{"AppService/ListApps", false, func(ctx context.Context, s *authStack) error {
		_, err := s.apps.ListApps(ctx, &api.ListAppsRequest{})
		return err
	}},
	{"AppService/GetApp", false, func(ctx context.Context, s *authStack) error {
		_, err := s.apps.GetApp(ctx, &api.GetAppRequest{AppName: appName})
		return err
	}},
}

// restCalls are every REST route, each naming u1 where it names a user;
// open routes are served to every caller.
var restCalls = withNotServed([]routeCase{
	{"GET /list-apps", false, false, request{method: "GET", path: "/list-apps"}, 0, nil},
	{"GET /version", false, false, request{method: "GET", path: "/version"}, 0, nil},
	{"GET /apps/*", false, false, request{method: "GET", path: "/apps/desk"}, 0, nil},
	{"GET /apps/*/users/*/sessions", true, false, request{method: "GET", path: "/apps/desk/users/u1/sessions"}, 0, nil},
	{"POST /apps/*/users/*/sessions", true, false, request{method: "POST", path: "/apps/desk/users/u1/sessions", body: `{"sessionId": "s2"}`}, 0, nil},
	{"GET /apps/*/users/*/sessions/*", true, false, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1"}, 0, nil},
	{"DELETE /apps/*/users/*/sessions/*", true, false, request{method: "DELETE", path: "/apps/desk/users/u1/sessions/s1"}, 0, nil},
	{"PATCH /apps/*/users/*/sessions/*", true, false, request{method: "PATCH", path: "/apps/desk/users/u1/sessions/s1", body: `{"stateDelta": {"k": "v"}}`}, 0, nil},
	{"POST /apps/*/users/*/sessions/*/rewind", true, false, request{method: "POST", path: "/apps/desk/users/u1/sessions/s1/rewind", body: `{"rewindBeforeInvocationId": "inv1"}`}, 0, nil},
	{"GET /apps/*/users/*/sessions/*/artifacts", true, false, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1/artifacts"}, 0, nil},
	{"POST /apps/*/users/*/sessions/*/artifacts", true, false, request{method: "POST", path: "/apps/desk/users/u1/sessions/s1/artifacts", body: `{"filename": "a.txt", "artifact": {"text": "hi"}}`}, 0, nil},
	{"GET /apps/*/users/*/sessions/*/artifacts/*", true, false, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1/artifacts/a.txt"}, 0, nil},
	{"GET /apps/*/users/*/sessions/*/artifacts/*/versions", true, false, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1/artifacts/a.txt/versions"}, 0, nil},
	{"GET /apps/*/users/*/sessions/*/artifacts/*/versions/metadata", true, false, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1/artifacts/a.txt/versions/metadata"}, 0, nil},
	{"GET /apps/*/users/*/sessions/*/artifacts/*/versions/*", true, false, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1/artifacts/a.txt/versions/0"}, 0, nil},
	{"GET /apps/*/users/*/sessions/*/artifacts/*/versions/*/metadata", true, false, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1/artifacts/a.txt/versions/0/metadata"}, 0, nil},
	{"DELETE /apps/*/users/*/sessions/*/artifacts/*", true, false, request{method: "DELETE", path: "/apps/desk/users/u1/sessions/s1/artifacts/gone.txt"}, 0, nil},
	{"PATCH /apps/*/users/*/memory", true, false, request{method: "PATCH", path: "/apps/desk/users/u1/memory", body: `{"session_id": "s1"}`}, 0, nil},
	{"GET /apps/*/users/*/memory", true, false, request{method: "GET", path: "/apps/desk/users/u1/memory?query=cat"}, 0, nil},
	{"POST /run", true, false, request{method: "POST", path: "/run", body: runBody("s1", "hello")}, 0, nil},
	{"POST /run_sse", true, false, request{method: "POST", path: "/run_sse", body: runBody("s1", "hello")}, 0, nil},
	{"GET /health", false, true, request{method: "GET", path: "/health"}, 0, nil},
	{"GET /openapi.json", false, true, request{method: "GET", path: "/openapi.json"}, 0, nil},
	{"GET /apps/*/app-info", false, false, request{method: "GET", path: "/apps/desk/app-info"}, 0, nil},
	{"GET /config/telemetry", false, false, request{method: "GET", path: "/config/telemetry"}, 0, nil},
	{"POST /config/telemetry", false, false, request{method: "POST", path: "/config/telemetry", body: `{"telemetry": true}`}, 0, nil},
	{"GET /dev/apps/*/graph", false, false, request{method: "GET", path: "/dev/apps/desk/graph"}, 0, nil},
	{"GET /dev/apps/*/eval_sets", false, false, request{method: "GET", path: "/dev/apps/desk/eval_sets"}, 0, nil},
	{"GET /dev/apps/*/eval-sets", false, false, request{method: "GET", path: "/dev/apps/desk/eval-sets"}, 0, nil},
	{"GET /dev/apps/*/eval_results", false, false, request{method: "GET", path: "/dev/apps/desk/eval_results"}, 0, nil},
	{"GET /dev/apps/*/eval-results", false, false, request{method: "GET", path: "/dev/apps/desk/eval-results"}, 0, nil},
	{"GET /dev/apps/*/builder", false, false, request{method: "GET", path: "/dev/apps/desk/builder"}, 0, nil},
	{"GET /dev/apps/*/build_graph", false, false, request{method: "GET", path: "/dev/apps/desk/build_graph"}, 0, nil},
	{"GET /dev/apps/*/build_graph_image", false, false, request{method: "GET", path: "/dev/apps/desk/build_graph_image"}, 0, nil},
	{"GET /dev/apps/*/users/*/sessions/*/events/*/graph", true, false, request{method: "GET", path: "/dev/apps/desk/users/u1/sessions/s1/events/x/graph"}, 0, nil},
	// The trace routes name no user but answer with a user's spans, found
	// by ids the caller chooses: another user reads no trace (see
	// newAuthStack's, of u1's session s1 and event ev1).
	{"GET /dev/apps/*/debug/trace/*", false, false, request{method: "GET", path: "/dev/apps/desk/debug/trace/ev1"}, 0,
		&hiddenData{shown: "ev1", status: 404, reason: "TRACE_NOT_FOUND"}},
	{"GET /dev/apps/*/debug/trace/session/*", false, false, request{method: "GET", path: "/dev/apps/desk/debug/trace/session/s1"}, 0,
		&hiddenData{shown: "ev1", status: 200}},
})

// routeCase is one REST route's authorisation case; a route agentsvc does
// not serve answers 501 (served) to every caller it authenticates.
type routeCase struct {
	route           string // as server.Routes lists it
	namesUser, open bool
	req             request
	served          int
	// hidden is set for a route that names no user but answers with u1's
	// data.
	hidden *hiddenData
}

// hiddenData is how a route that names no user answers with u1's data:
// only u1 and an admin read shown in the answer; every other user gets
// status and reason, as if the data did not exist, in place of 403.
type hiddenData struct {
	shown  string
	status int
	reason string
}

// withNotServed returns cases and the cases of the routes answered 501
// that cases do not serve.
func withNotServed(cases []routeCase) []routeCase {
	served := map[string]bool{}
	for _, c := range cases {
		served[c.route] = true
	}
	for _, c := range notServedCalls() {
		if !served[c.route] {
			cases = append(cases, c)
		}
	}
	return cases
}

// notServedCalls are the cases of the routes answered 501.
func notServedCalls() []routeCase {
	var out []routeCase
	for _, r := range server.NotServedRoutes() {
		route, path := r[0]+" ", ""
		for _, seg := range strings.Split(strings.TrimPrefix(r[1], "/"), "/") {
			if strings.HasPrefix(seg, "{") {
				route += "/*"
				path += "/" + cmp.Or(map[string]string{"{app_name}": "desk", "{user_id}": "u1", "{session_id}": "s1"}[seg], "x")
				continue
			}
			route += "/" + seg
			path += "/" + seg
		}
		out = append(out, routeCase{route: route, req: request{method: r[0], path: path, body: "{}"}, served: 501})
	}
	return out
}

// errorReason is the ErrorInfo reason of a gRPC error.
func errorReason(err error) string {
	for _, d := range status.Convert(err).Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.Reason
		}
	}
	return ""
}

// TestAuthorizationEveryRPC: every RPC answers each caller as the contract
// says, and a refused call reads and writes nothing.
func TestAuthorizationEveryRPC(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	a := newJWTAuthenticator(t, key)
	for _, rpc := range grpcCalls {
		for _, c := range callers(t, key) {
			t.Run(rpc.method+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				s := newAuthStack(t, a)
				s.model.Enqueue(et.Text("Hello."))
				want, reason := c.code, c.reason
				if !rpc.namesUser && want != codes.Unauthenticated {
					want, reason = codes.OK, ""
				}
				err := rpc.call(withToken(t.Context(), c.token), s)
				if got := status.Code(err); got != want || errorReason(err) != reason {
					t.Fatalf("%v (reason %q), want %v (%q)", err, errorReason(err), want, reason)
				}
				if err != nil {
					if n := s.counted.calls.Load(); n != 0 {
						t.Errorf("refused call made %d store calls, want none", n)
					}
					if msg := status.Convert(err).Message(); strings.Contains(msg, "u2") || strings.Contains(msg, "audience") || strings.Contains(msg, "signature") {
						t.Errorf("message %q tells the caller more than its code", msg)
					}
				}
			})
		}
	}
	// Health stays open.
	s := newAuthStack(t, a)
	if _, err := s.health.Check(t.Context(), &healthpb.HealthCheckRequest{}); err != nil {
		t.Errorf("health check without a token: %v", err)
	}
}

// TestAuthorizationEveryRoute: every REST route answers each caller as the
// contract says (401 with WWW-Authenticate: Bearer, 403, or 200), and a
// refused request reads and writes nothing. A route of the handler without
// a case fails the test.
func TestAuthorizationEveryRoute(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	a := newJWTAuthenticator(t, key)
	var covered []string
	for _, rc := range restCalls {
		covered = append(covered, rc.route)
	}
	stack := newAuthStack(t, a)
	for _, r := range server.Routes(stack.handler(t, server.WithTraces(stack.traces))) {
		if !slices.Contains(covered, r) {
			t.Errorf("route %s has no authorisation case", r)
		}
	}
	for _, rc := range restCalls {
		for _, c := range callers(t, key) {
			t.Run(rc.route+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				s := newAuthStack(t, a)
				s.model.Enqueue(et.Text("Hello."))
				want, reason := c.code, c.reason
				if rc.open || !rc.namesUser && rc.hidden == nil && want != codes.Unauthenticated {
					want, reason = codes.OK, ""
				}
				req := rc.req
				if c.token != "" {
					req.header = map[string]string{"Authorization": "Bearer " + c.token}
				}
				rep := s.do(t, req)
				wantHTTP := map[codes.Code]int{codes.OK: cmp.Or(rc.served, 200), codes.Unauthenticated: 401, codes.PermissionDenied: 403}[want]
				if want == codes.OK && rc.served != 0 {
					reason = "NOT_SERVED"
				}
				if h := rc.hidden; h != nil {
					if want == codes.PermissionDenied {
						wantHTTP, reason = h.status, h.reason
					}
					if shows := strings.Contains(rep.body, h.shown); shows != (want == codes.OK) {
						t.Errorf("answer %s holds %q: %v, want %v", rep.body, h.shown, shows, want == codes.OK)
					}
				}
				if rep.status != wantHTTP || rep.err.reason() != reason {
					t.Fatalf("%d %s (reason %q), want %d (%q)", rep.status, rep.body, rep.err.reason(), wantHTTP, reason)
				}
				if want == codes.Unauthenticated && !strings.HasPrefix(rep.header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("WWW-Authenticate = %q, want a Bearer challenge", rep.header.Get("WWW-Authenticate"))
				}
				if want != codes.OK {
					if n := s.counted.calls.Load(); n != 0 {
						t.Errorf("refused request made %d store calls, want none", n)
					}
				}
			})
		}
	}
}

// TestAuthorizationOtherSessionNotLeaked: another user's session is
// refused the same whether or not it exists.
func TestAuthorizationOtherSessionNotLeaked(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	s := newAuthStack(t, newJWTAuthenticator(t, key))
	ctx := withToken(t.Context(), key.Token(t, "u2", nil))
	_, errExists := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: "s1"})
	_, errMissing := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: "nope"})
	if status.Code(errExists) != codes.PermissionDenied || status.Convert(errExists).Proto().String() != status.Convert(errMissing).Proto().String() {
		t.Fatalf("existing: %v; missing: %v; want the same PERMISSION_DENIED", errExists, errMissing)
	}
}

// TestAppStateNeedsAdmin: every way "app:" state enters from the API —
// CreateSession's state, UpdateSessionState's delta (gRPC and PATCH), a
// run's state_delta (Run, Connect, /run) and a Connect tool result's
// actions — is PERMISSION_DENIED for a user's own token and writes nothing;
// an admin's token writes it.
func TestAppStateNeedsAdmin(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	a := newJWTAuthenticator(t, key)
	appDelta, _ := structpb.NewStruct(map[string]any{"app:motd": "hi", "k": "v"})
	runWith := func() *api.RunRequest { r := authRunRequest(); r.StateDelta = appDelta; return r }
	for _, w := range []struct {
		name  string
		write func(ctx context.Context, s *authStack) error
	}{
		{"CreateSession", func(ctx context.Context, s *authStack) error {
			_, err := s.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID, SessionId: "s2", State: appDelta})
			return err
		}},
		{"UpdateSessionState", func(ctx context.Context, s *authStack) error {
			_, err := s.sessions.UpdateSessionState(ctx, &api.UpdateSessionStateRequest{AppName: appName, UserId: userID, SessionId: "s1", StateDelta: appDelta})
			return err
		}},
		{"Run", func(ctx context.Context, s *authStack) error {
			s.model.Enqueue(et.Text("Hello."))
			stream, err := s.runner.Run(ctx, runWith())
			if err != nil {
				return err
			}
			return drain[*api.RunResponse](stream)
		}},
		{"Connect start", func(ctx context.Context, s *authStack) error {
			s.model.Enqueue(et.Text("Hello."))
			stream, err := s.runner.Connect(ctx)
			if err != nil {
				return err
			}
			if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{Run: runWith()}}}); err != nil {
				return err
			}
			return drain[*api.ConnectResponse](stream)
		}},
		{"Connect tool result", func(ctx context.Context, s *authStack) error {
			s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("Sunny."))
			stream, err := s.runner.Connect(ctx)
			if err != nil {
				return err
			}
			start := &api.StartRun{Run: authRunRequest(), Tools: []*api.ToolDeclaration{{Name: "get_weather"}}}
			if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: start}}); err != nil {
				return err
			}
			for {
				msg, err := stream.Recv()
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return err
				}
				if call := msg.GetToolCall(); call != nil {
					res := &api.ToolResult{CallId: call.CallId, Response: structpb.NewStringValue("sunny"),
						Actions: &v1.EventActions{StateDelta: appDelta}}
					if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: res}}); err != nil {
						return err
					}
				}
			}
		}},
		{"PATCH", func(ctx context.Context, s *authStack) error {
			return restCall(t, s, ctx, request{method: "PATCH", path: "/apps/desk/users/u1/sessions/s1", body: `{"stateDelta": {"app:motd": "hi"}}`})
		}},
		{"POST sessions", func(ctx context.Context, s *authStack) error {
			return restCall(t, s, ctx, request{method: "POST", path: "/apps/desk/users/u1/sessions", body: `{"state": {"app:motd": "hi"}}`})
		}},
		{"POST /run", func(ctx context.Context, s *authStack) error {
			s.model.Enqueue(et.Text("Hello."))
			body := strings.Replace(runBody("s1", "hello"), `"appName"`, `"stateDelta":{"app:motd":"hi"},"appName"`, 1)
			return restCall(t, s, ctx, request{method: "POST", path: "/run", body: body})
		}},
	} {
		for _, c := range []struct {
			name  string
			token string
			want  codes.Code
		}{
			{"own", key.Token(t, userID, nil), codes.PermissionDenied},
			{"admin", key.Token(t, "ops", map[string]any{"scope": adminScope}), codes.OK},
		} {
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				s := newAuthStack(t, a)
				before := s.snapshot(t, userID)
				err := w.write(withToken(t.Context(), c.token), s)
				if status.Code(err) != c.want {
					t.Fatalf("%v, want %v", err, c.want)
				}
				after := s.snapshot(t, userID)
				if c.want != codes.OK {
					if status.Convert(err).Message() == "" || errorReason(err) != "APP_STATE_DENIED" {
						t.Errorf("reason %q, want APP_STATE_DENIED", errorReason(err))
					}
					if strings.Contains(after, "app:motd") {
						t.Errorf("app state written by a refused call:\n%s", after)
					}
					if w.name != "Connect tool result" && after != before {
						t.Errorf("store changed by a refused call:\nbefore %s\nafter  %s", before, after)
					}
				} else if !strings.Contains(after, "app:motd") {
					t.Errorf("admin's app state not written:\n%s", after)
				}
			})
		}
	}
}

// restCall makes a REST request with the token of ctx and returns its
// answer as a gRPC status error (nil for 2xx).
func restCall(t *testing.T, s *authStack, ctx context.Context, req request) error {
	t.Helper()
	md, _ := metadata.FromOutgoingContext(ctx)
	if v := md.Get("authorization"); len(v) > 0 {
		req.header = map[string]string{"Authorization": v[0]}
	}
	rep := s.do(t, req)
	if rep.status < 300 {
		return nil
	}
	code := map[int]codes.Code{401: codes.Unauthenticated, 403: codes.PermissionDenied}[rep.status]
	if code == codes.OK {
		code = codes.Unknown
	}
	st := status.New(code, rep.err.Message)
	st, _ = st.WithDetails(&errdetails.ErrorInfo{Reason: rep.err.reason(), Domain: "agentsvc"})
	return st.Err()
}

// TestAuthorizeWithoutInterceptor: a server configured with an
// authenticator refuses calls that reach it without an identity, as when
// the interceptor is missing.
func TestAuthorizeWithoutInterceptor(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	fx := newFixture(t, withConfig(func(c *server.Config) { c.Authenticator = newJWTAuthenticator(t, key) }))
	_, err := fx.sessions.ListSessions(t.Context(), &api.ListSessionsRequest{AppName: appName, UserId: userID})
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("%v, want UNAUTHENTICATED", err)
	}
}

// authzArtifacts is a store holding u1's artifact a.txt of session s1, so
// that reading it is allowed or refused rather than missing.
func authzArtifacts(t *testing.T) artifacts.Service {
	t.Helper()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Save(t.Context(), artifacts.Key{AppName: appName, UserID: userID, SessionID: "s1", Filename: "a.txt"},
		&v1.Part{Text: "hi"}, nil); err != nil {
		t.Fatal(err)
	}
	return store
}

// authzTraces is a trace buffer holding the spans of an invocation of u1's
// session s1, as the engine names their owner, whose model call made event
// ev1.
func authzTraces() *tracebuffer.Buffer {
	buf := tracebuffer.New(100)
	tr := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(buf)).Tracer("test")
	owner := trace.WithAttributes(attribute.String(tracebuffer.AttrApp, appName), attribute.String(tracebuffer.AttrUser, userID),
		attribute.String(tracebuffer.AttrSession, "s1"))
	ctx, inv := tr.Start(context.Background(), "invocation", owner)
	_, call := tr.Start(ctx, "call_llm", owner)
	call.SetAttributes(attribute.String("gcp.vertex.agent.session_id", "s1"), attribute.String("gcp.vertex.agent.event_id", "ev1"))
	call.End()
	inv.End()
	return buf
}
