package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
	"github.com/agentsvc/agentsvc/internal/features"

	memsvc "github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/memory/memoryurl"
	memredis "github.com/agentsvc/agentsvc/internal/memory/redis"

	"github.com/agentsvc/agentsvc/internal/tracebuffer"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	"github.com/agentsvc/agentsvc/examples"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/config"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
	"github.com/agentsvc/agentsvc/internal/sessions/redis"
)

// stopTimeout bounds how long cancelled invocations may take to end and
// release their leases once the shutdown grace has elapsed.
const stopTimeout = 5 * time.Second

// serve wires the service and runs it until ctx ends, then drains.
func serve(ctx context.Context, o *options, getenv func(string) string, log *slog.Logger) error {
	var traces *tracebuffer.Buffer
	if o.traceBuffer > maxTraceBuffer {
		return fmt.Errorf("--trace-buffer %d: at most %d spans", o.traceBuffer, maxTraceBuffer)
	}
	if o.traceBuffer > 0 {
		traces = tracebuffer.New(o.traceBuffer)
	}
	tel, err := newTelemetry(ctx, getenv, log, traces)
	if err != nil {
		return err
	}
	// Deferred first, so it runs last: the spans of the drain are flushed.
	defer func() {
		if err := tel.shutdown(ctx); err != nil {
			log.Warn("telemetry flush", "err", err)
		}
	}()
	store, err := openSessions(ctx, o, log, tel.storeTracer())
	if err != nil {
		return err
	}
	defer store.Close()

	gcfg, hasCreds := gemini.ConfigFromEnv(getenv)
	if o.geminiBaseURL != "" {
		gcfg.BaseURL = o.geminiBaseURL
	}
	if !hasCreds && gcfg.BaseURL == "" {
		return errors.New("no Gemini credentials: set GOOGLE_API_KEY (or GEMINI_API_KEY), or GOOGLE_GENAI_USE_VERTEXAI=1 with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, or point --gemini-base-url at a server that speaks the Gemini API")
	}
	// Keep connections to the model endpoint alive across calls; the
	// default transport keeps two idle connections per host and dials anew
	// under load. Vertex AI without an API key needs the SDK's own client,
	// which carries the default credentials.
	if gcfg.Backend != gemini.BackendVertexAI || gcfg.APIKey != "" {
		gcfg.HTTPClient = pooledHTTPClient()
	}
	gcfg.Timeout, gcfg.MaxResponseBytes, gcfg.MaxChunks = o.modelTimeout, o.maxModelResponseBytes, o.maxModelChunks
	flags := features.FromEnv(ctx, log, os.Environ())
	gcfg.LegacyStreaming = !flags.Enabled(features.ProgressiveSSEStreaming)
	for _, n := range flags.Changed() {
		if !features.Acts(n) {
			log.Warn("ADK feature flag has no effect in agentsvc", "feature", string(n), "enabled", flags.Enabled(n))
		}
	}
	provider, err := gemini.New(ctx, gcfg)
	if err != nil {
		return fmt.Errorf("gemini: %w", err)
	}

	mem, err := openMemory(ctx, o, log, tel.storeTracer())
	if err != nil {
		return err
	}
	defer mem.Close()
	arts, err := blobstore.Open(ctx, o.artifacts, blobstore.WithLogger(log))
	if err != nil {
		return fmt.Errorf("--artifacts %s: %w", redactURL(o.artifacts), err)
	}
	defer arts.Close()

	apps, err := loadApps(o.agents, store, provider, historySessions(o))
	if err != nil {
		return err
	}
	for _, a := range apps {
		a.Runner.Memory = mem
		a.Runner.Artifacts = arts
		a.Runner.MaxDepth = o.maxDepth
		a.Runner.Telemetry = tel.engine
		a.Runner.App.Features = flags
	}
	if err := addReplay(apps, o.conformanceDir, log); err != nil {
		return err
	}
	audit, closeAudit, err := openAuditLog(o.auditLog)
	if err != nil {
		return err
	}
	defer func() { _ = closeAudit() }()
	authn, err := newAuthenticator(ctx, o, log)
	if err != nil {
		return err
	}
	srv := server.New(server.Config{Apps: apps, Sessions: store, Memory: mem, Artifacts: arts, Logger: log, ToolTimeout: o.toolTimeout,
		MaxInvocationTime: o.maxInvocationTime,
		LeaseTTL:          o.sessionLeaseTTL, SessionBusyWait: sessionBusyWait(o),
		ConnectStartTimeout: o.connectStartTimeout, MaxConnectStreams: maxConnectStreams(o),
		MaxDepth:                        o.maxDepth,
		MaxConcurrentInvocationsPerUser: o.maxUserInvocations,
		UserRate:                        o.userRate, UserBurst: o.userBurst,
		MaxSessionsPerUser:      o.maxUserSessions,
		MaxInflightRequestBytes: inflightBudget(o),
		AuditLogger:             audit,
		Authenticator:           authn,
		MeterProvider:           tel.meter})

	tlsr, err := newTLS(o, log)
	if err != nil {
		return err
	}

	grpcLis, err := net.Listen("tcp", o.grpcAddr)
	if err != nil {
		return fmt.Errorf("grpc listener: %w", err)
	}
	httpLis, err := net.Listen("tcp", o.httpAddr)
	if err != nil {
		grpcLis.Close()
		return fmt.Errorf("http listener: %w", err)
	}

	// The request ids and the audit come first, so that every interceptor
	// after them logs with the id and every refusal is audited; the
	// authentication after them puts the caller in the call's context.
	gs := grpc.NewServer(append(append(append(append(srv.RequestOptions(), srv.ReceiveOptions()...), server.RecoveryOptions(log)...), server.AuthOptions(authn, log)...),
		grpcCreds(tlsr),
		grpc.MaxRecvMsgSize(o.maxRequestBytes),
		grpc.MaxSendMsgSize(64<<20),
		grpc.MaxConcurrentStreams(maxStreamsPerConn),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 10 * time.Second, PermitWithoutStream: true}),
		grpc.KeepaliveParams(keepalive.ServerParameters{Time: time.Minute, Timeout: 20 * time.Second}),
		tel.grpcOption(),
	)...)
	api.RegisterRunnerServiceServer(gs, srv)
	api.RegisterSessionServiceServer(gs, srv)
	api.RegisterAppServiceServer(gs, srv)
	api.RegisterArtifactServiceServer(gs, srv)
	healthSrv := health.NewServer()
	ready := newReadiness(healthSrv) // NOT_SERVING until the listeners serve
	healthpb.RegisterHealthServer(gs, healthSrv)
	reflection.Register(gs)

	httpOpts := []server.HTTPOption{
		server.WithMaxRequestBytes(int64(o.maxRequestBytes)),
		server.WithAllowOrigins(splitList(o.allowOrigins)),
		server.WithListenAddr(o.httpAddr),
		server.WithBodyReadTimeout(o.httpBodyTimeout),
	}
	if o.metricsAddr == "" {
		httpOpts = append(httpOpts, server.WithMetrics(tel.metricsHandler()))
	}
	if traces != nil {
		httpOpts = append(httpOpts, server.WithTraces(traces))
	}
	if o.devUI != "" {
		ui := os.DirFS(o.devUI)
		if err := server.CheckDevUI(ui); err != nil {
			return fmt.Errorf("--dev-ui %s: %w (make dev-ui installs ADK's web UI into .tools/dev-ui)", o.devUI, err)
		}
		httpOpts = append(httpOpts, server.WithDevUI(ui))
	}
	if o.a2aURL != "" && !o.a2a {
		return errors.New("--a2a-url: only applies with --a2a")
	}
	if o.a2a {
		if err := server.CheckA2AURL(o.a2aURL); err != nil {
			return fmt.Errorf("--a2a-url: %w", err)
		}
		httpOpts = append(httpOpts, server.WithA2A(strings.TrimRight(o.a2aURL, "/")))
	}
	handler, err := srv.HTTPHandler(ctx, ready.serving, httpOpts...)
	if err != nil {
		return err
	}
	// No WriteTimeout: it would cut a long /run_sse response. The handler
	// bounds the body's read time itself and answers 408, where
	// ReadTimeout would drop the connection without an answer.
	hs := &http.Server{
		Handler:           tel.httpHandler(handler),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	if tlsr != nil {
		hs.TLSConfig = tlsr.Config("h2", "http/1.1")
	}

	if o.debugAddr != "" {
		go serveDebug(o.debugAddr, log)
	}
	var ms *http.Server
	if o.metricsAddr != "" {
		metricsLis, err := net.Listen("tcp", o.metricsAddr)
		if err != nil {
			grpcLis.Close()
			httpLis.Close()
			return fmt.Errorf("metrics listener: %w", err)
		}
		ms = tel.metricsServer()
		go func() {
			if err := ms.Serve(metricsLis); !errors.Is(err, http.ErrServerClosed) {
				log.Error("metrics listener", "err", err)
			}
		}()
		log.Info("metrics serving", "addr", metricsLis.Addr().String())
	}
	errc := make(chan error, 2)
	go func() { errc <- gs.Serve(grpcLis) }()
	go func() {
		if err := serveHTTP(hs, httpLis); !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	// Both listeners are bound and served: accept connections from here on,
	// while the session store answers.
	ready.checkStore(ctx, store, storeCheckTimeout, log)
	ready.setListening(true)
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go ready.watchStore(watchCtx, store, storeCheckInterval, storeCheckTimeout, log)
	log.Info("agentsvc serving", "grpc", grpcLis.Addr().String(), "http", httpLis.Addr().String(),
		"apps", len(apps), "sessions", redactURL(o.sessions), "memory", redactURL(o.memory), "artifacts", redactURL(o.artifacts), "tls", tlsr != nil, "mtls", tlsr != nil && tlsr.MutualTLS())

	select {
	case <-ctx.Done():
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	}

	log.Info("draining", "grace", o.shutdownGrace)
	stopWatch()
	ready.setListening(false)
	healthSrv.Shutdown() // every service reports NOT_SERVING
	srv.Drain()          // new invocations get UNAVAILABLE from here on
	drainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.shutdownGrace)
	defer cancel()
	if err := srv.Wait(drainCtx); err != nil {
		log.Warn("shutdown grace elapsed with invocations still running; cancelling them")
	}
	// Cancel what still runs and give its leases back while the store is
	// open (it closes when serve returns), so that other replicas can take
	// the sessions over at once.
	stopCtx, stopCancel := context.WithTimeout(context.WithoutCancel(ctx), stopTimeout)
	defer stopCancel()
	if err := srv.Stop(stopCtx); err != nil {
		log.Warn("invocations still running after cancellation; their leases expire on their own", "err", err)
	}
	done := make(chan struct{})
	go func() { gs.GracefulStop(); close(done) }()
	select {
	case <-done:
	case <-drainCtx.Done():
		gs.Stop()
	}
	if err := hs.Shutdown(drainCtx); err != nil {
		hs.Close()
	}
	if ms != nil {
		ms.Close()
	}
	for _, a := range apps {
		if err := a.Runner.App.Close(stopCtx); err != nil {
			log.Warn("closing app", "app", a.Runner.App.Name, "err", err)
		}
	}
	log.Info("stopped")
	return nil
}

// maxStreamsPerConn bounds the concurrent streams of one gRPC connection
// (grpc-go allows any number by default), so that one connection cannot
// open streams without end. The load bench holds 10,000 Connect streams
// over 8 connections, 1,250 each; a client with more streams in flight on
// one connection waits for a free one rather than failing.
const maxStreamsPerConn = 4096

// maxConnectStreams maps the flag, where 0 means no cap, to
// [server.Config.MaxConnectStreams], where it means the default.
func maxConnectStreams(o *options) int {
	if o.maxConnectStreams <= 0 {
		return -1
	}
	return o.maxConnectStreams
}

// inflightBudget is the server's MaxInflightRequestBytes of
// --max-inflight-request-bytes, whose 0 means no bound.
func inflightBudget(o *options) int64 {
	if o.maxInflightRequestBytes == 0 {
		return -1
	}
	return o.maxInflightRequestBytes
}

// sessionBusyWait maps the flag, where 0 means no wait, to
// [server.Config.SessionBusyWait], where it means the default.
func sessionBusyWait(o *options) time.Duration {
	if o.sessionBusyWait <= 0 {
		return -1
	}
	return o.sessionBusyWait
}

// openMemory opens the memory service of --memory; a Redis one that cannot
// be reached at start-up is logged, as the session store is.
func openMemory(ctx context.Context, o *options, log *slog.Logger, tp trace.TracerProvider) (memsvc.Service, error) {
	mem, err := memoryurl.Open(ctx, o.memory, memoryurl.Options{Redis: memredis.Options{TracerProvider: tp, MaxRetries: 1,
		DialTimeout: o.redisTimeout, ReadTimeout: o.redisTimeout, WriteTimeout: o.redisTimeout}})
	if err != nil {
		return nil, fmt.Errorf("--memory %s: %w", redactURL(o.memory), err)
	}
	if err := mem.Ping(ctx); err != nil {
		log.Warn("memory service unreachable", "memory", redactURL(o.memory), "err", err)
	}
	return mem, nil
}

func openSessions(ctx context.Context, o *options, log *slog.Logger, tp trace.TracerProvider) (sessions.Service, error) {
	uri := o.sessions
	switch {
	case uri == "" || uri == "memory://":
		return memory.New(memory.WithLimits(sessionLimits(o))), nil
	case strings.HasPrefix(uri, "redis://"), strings.HasPrefix(uri, "rediss://"),
		strings.HasPrefix(uri, "redis+cluster://"), strings.HasPrefix(uri, "rediss+cluster://"):
		// One retry: a store that is down fails requests with UNAVAILABLE
		// quickly instead of holding them through several reconnects.
		store, err := redis.New(uri, redis.Options{TTL: o.sessionTTL, Logger: log, MaxRetries: 1,
			Limits:         sessionLimits(o),
			TracerProvider: tp,
			DialTimeout:    o.redisTimeout, ReadTimeout: o.redisTimeout, WriteTimeout: o.redisTimeout})
		if err != nil {
			return nil, fmt.Errorf("--sessions %s: %w", redactURL(uri), err)
		}
		// Not reaching Redis at start-up is logged, not fatal: the store
		// reconnects, and requests fail with UNAVAILABLE meanwhile.
		if err := store.Ping(ctx); err != nil {
			log.Warn("session store unreachable", "sessions", redactURL(uri), "err", err)
		}
		return store, nil
	default:
		return nil, fmt.Errorf("--sessions %q: use memory://, redis://host:port/db or redis+cluster://host:port,host:port", redactURL(uri))
	}
}

// sessionLimits are the per-session caps of o; 0 in a flag means the default.
func sessionLimits(o *options) sessions.Limits {
	return sessions.Limits{MaxEvents: o.maxSessionEvents, MaxBytes: o.maxSessionBytes}
}

// redactURL hides a password in a store URL.
func redactURL(uri string) string {
	if at := strings.LastIndex(uri, "@"); at >= 0 {
		if scheme := strings.Index(uri, "://"); scheme >= 0 && scheme < at {
			return uri[:scheme+3] + "***" + uri[at:]
		}
	}
	return uri
}

// historySessions returns the runners' HistorySessions for o: kept
// contents hold the events they were built from, which the in-memory store
// shares, while with Redis they would be decoded copies held only for this.
func historySessions(o *options) int {
	switch {
	case o.historySessions > 0:
		return o.historySessions
	case o.historySessions == 0 || strings.HasPrefix(o.sessions, "redis"):
		return -1
	default:
		return 0 // the runtime's default
	}
}

// maxTraceBuffer bounds --trace-buffer: a span kept takes about a
// kilobyte.
const maxTraceBuffer = 1_000_000

func loadApps(dir string, store sessions.Service, provider *gemini.Provider, history int) ([]*server.App, error) {
	var fsys fs.FS = examples.FS
	if dir != "" {
		fsys = os.DirFS(dir)
	}
	cfgs, err := config.LoadAll(fsys)
	if err != nil {
		return nil, err
	}
	apps := make([]*server.App, 0, len(cfgs))
	for _, c := range cfgs {
		app, info, err := config.Build(c)
		if err != nil {
			return nil, err
		}
		apps = append(apps, &server.App{
			Runner: &runtime.Runner{App: app, Sessions: store, Models: provider, HistorySessions: history},
			Info:   info,
		})
	}
	return apps, nil
}

// pooledHTTPClient is an HTTP client that keeps many idle connections per
// host, for the model endpoint.
func pooledHTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 1024
	tr.MaxIdleConnsPerHost = 1024
	tr.IdleConnTimeout = 90 * time.Second
	return &http.Client{Transport: tr}
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
