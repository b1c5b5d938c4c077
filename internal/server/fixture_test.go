package server_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/config"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// fixture is an in-process server of one app, by default the desk app on
// a scripted model over an in-memory store, served over bufconn. The
// stacks of this package's tests are built on it.
type fixture struct {
	srv      *server.Server
	store    sessions.Service
	model    *scripted.Model // the app's model; nil when withModels replaced it
	conn     *grpc.ClientConn
	runner   api.RunnerServiceClient
	sessions api.SessionServiceClient
}

// fixtureSettings is what the options of [newFixture] adjust.
type fixtureSettings struct {
	app        fstest.MapFS
	store      sessions.Service
	models     models.Resolver
	configure  []func(*server.Config)
	noGRPC     bool
	serverOpts []grpc.ServerOption
	dialOpts   []grpc.DialOption
}

// fixtureOption adjusts a [fixture] before its server starts.
type fixtureOption func(*fixtureSettings)

// withApp serves the app loaded from fsys (one app) instead of the desk app.
func withApp(fsys fstest.MapFS) fixtureOption {
	return func(s *fixtureSettings) { s.app = fsys }
}

// withStore runs the server and its runner on store instead of a new
// in-memory store.
func withStore(store sessions.Service) fixtureOption {
	return func(s *fixtureSettings) { s.store = store }
}

// withModels resolves the app's models with r instead of a scripted model.
func withModels(r models.Resolver) fixtureOption {
	return func(s *fixtureSettings) { s.models = r }
}

// withConfig adjusts the server's config once its app, store and logger
// are set.
func withConfig(configure func(*server.Config)) fixtureOption {
	return func(s *fixtureSettings) { s.configure = append(s.configure, configure) }
}

// withServerOptions gives options to the gRPC server.
func withServerOptions(opts ...grpc.ServerOption) fixtureOption {
	return func(s *fixtureSettings) { s.serverOpts = append(s.serverOpts, opts...) }
}

// withDialOptions gives options to the gRPC client.
func withDialOptions(opts ...grpc.DialOption) fixtureOption {
	return func(s *fixtureSettings) { s.dialOpts = append(s.dialOpts, opts...) }
}

// withoutGRPC leaves the server unserved: conn and the clients stay nil.
func withoutGRPC() fixtureOption {
	return func(s *fixtureSettings) { s.noGRPC = true }
}

// deskApp is the desk app: desk_agent with the remote tools get_weather and
// approve, and the sub-agent helper with send_mail.
var deskApp = fstest.MapFS{
	appName + "/root_agent.yaml": {Data: []byte(deskAgent)},
	appName + "/helper.yaml":     {Data: []byte(helperAgent)},
}

// newFixture builds the server as opts say and, unless withoutGRPC, serves
// it over bufconn until t ends.
func newFixture(t testing.TB, opts ...fixtureOption) *fixture {
	t.Helper()
	set := fixtureSettings{app: deskApp}
	for _, o := range opts {
		o(&set)
	}
	apps, err := config.LoadAll(set.app)
	if err != nil {
		t.Fatal(err)
	}
	app, info, err := config.Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Close(context.Background()) })
	fx := &fixture{store: set.store}
	if fx.store == nil {
		fx.store = memory.New()
	}
	resolver := set.models
	if resolver == nil {
		fx.model = scripted.New(modelName)
		resolver = scripted.NewResolver(fx.model)
	}
	cfg := server.Config{
		Apps:     []*server.App{{Runner: &runtime.Runner{App: app, Sessions: fx.store, Models: resolver}, Info: info}},
		Sessions: fx.store,
		Logger:   slog.New(slog.DiscardHandler),
	}
	for _, configure := range set.configure {
		configure(&cfg)
	}
	fx.srv = server.New(cfg)
	if !set.noGRPC {
		fx.conn = serveGRPC(t, fx.srv, set.serverOpts, set.dialOpts...)
		fx.runner = api.NewRunnerServiceClient(fx.conn)
		fx.sessions = api.NewSessionServiceClient(fx.conn)
	}
	return fx
}

// serveGRPC serves srv's runner and session services over bufconn until t
// ends and returns a client connection to them.
func serveGRPC(t testing.TB, srv *server.Server, serverOpts []grpc.ServerOption, dialOpts ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer(serverOpts...)
	api.RegisterRunnerServiceServer(gs, srv)
	api.RegisterSessionServiceServer(gs, srv)
	api.RegisterArtifactServiceServer(gs, srv)
	served := make(chan struct{})
	go func() { _ = gs.Serve(lis); close(served) }()
	dial := append([]grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
	}, dialOpts...)
	conn, err := grpc.NewClient("passthrough:///bufconn", dial...)
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

// handler is the server's REST handler, always ready.
func (f *fixture) handler(t testing.TB, opts ...server.HTTPOption) http.Handler {
	t.Helper()
	h, err := f.srv.HTTPHandler(t.Context(), func() bool { return true }, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// serveHTTP serves the REST handler over loopback until t ends.
func (f *fixture) serveHTTP(t testing.TB, opts ...server.HTTPOption) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(f.handler(t, opts...))
	t.Cleanup(ts.Close)
	return ts
}

// run calls Run and returns its events and final status (nil for OK).
func (f *fixture) run(ctx context.Context, req *api.RunRequest) ([]*v1.Event, error) {
	stream, err := f.runner.Run(ctx, req)
	if err != nil {
		return nil, err
	}
	var events []*v1.Event
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		events = append(events, resp.Event)
	}
}

// waitIdle fails t unless every invocation has ended within 10 s.
func (f *fixture) waitIdle(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.srv.Wait(ctx); err != nil {
		t.Fatal("invocations still running:", err)
	}
}
