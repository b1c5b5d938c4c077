// Package server exposes the engine over gRPC and REST: the RunnerService,
// SessionService and AppService handlers, request validation, the mapping of
// errors to status codes, and the ADK-compatible REST routes.
package server

import (
	"cmp"
	"log/slog"
	"sort"
	"sync/atomic"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"

	"github.com/agentsvc/agentsvc/internal/memory"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/metric"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// App is an app the server runs: its runner and its description.
type App struct {
	Runner *runtime.Runner
	Info   *api.App
}

// Config configures a [Server].
type Config struct {
	Apps     []*App
	Sessions sessions.Service
	// Memory serves AddSessionToMemory and SearchMemory; nil answers them
	// with FAILED_PRECONDITION. The apps' runners search their own.
	Memory memory.Service
	// Artifacts serves the ArtifactService; nil answers it with
	// FAILED_PRECONDITION.
	Artifacts artifacts.Service
	Logger    *slog.Logger
	// LeaseTTL is the ttl of a session's lease, held by every call that
	// writes to a session (invocations, UpdateSessionState,
	// RewindSession): it bounds how long a replica that died keeps its
	// sessions busy. A store shared by replicas renews the lease every
	// fifth of it while the call runs; an invocation whose lease is lost
	// (taken over, or not renewed before it ran out) is ended with the
	// store's reason, ABORTED (SESSION_BUSY) or UNAVAILABLE. Default
	// [DefaultLeaseTTL].
	LeaseTTL time.Duration
	// SessionBusyWait is how long a call that needs a session's lease
	// waits for the invocation holding it to end, polling, before it
	// fails ABORTED (SESSION_BUSY). Default [DefaultSessionBusyWait];
	// negative: no wait.
	SessionBusyWait time.Duration
	// ToolTimeout bounds each client tool call on Connect; a call without a
	// result by then is answered with an error the model reads. Default 60s.
	ToolTimeout time.Duration
	// MaxInvocationTime bounds every invocation (Run, Connect, REST /run and
	// /run_sse) and the session lease it holds; past it the invocation
	// fails with DEADLINE_EXCEEDED. Default [DefaultMaxInvocationTime].
	MaxInvocationTime time.Duration
	// ConnectStartTimeout bounds the wait for a Connect stream's start
	// message; a stream without one by then ends DEADLINE_EXCEEDED.
	// Default DefaultConnectStartTimeout.
	ConnectStartTimeout time.Duration
	// MaxConnectStreams caps the Connect streams open at once, from their
	// first byte to their end; one more ends RESOURCE_EXHAUSTED at once.
	// Default DefaultMaxConnectStreams; negative means no cap.
	MaxConnectStreams int
	// MaxDepth caps the nesting of JSON-like values in requests: a deeper
	// one is INVALID_ARGUMENT naming its field, and nothing is stored.
	// Default [limits.DefaultMaxDepth].
	MaxDepth int
	// MaxResponseBytes is the largest GetSession answer sent whole; a
	// larger session must be read in pages (RESOURCE_EXHAUSTED otherwise).
	// Set it to the transport's send limit. Default
	// [DefaultMaxResponseBytes].
	MaxResponseBytes int
	// PageBytes bounds one page of GetSession. Default [DefaultPageBytes].
	PageBytes int
	// MaxInflightRequestBytes bounds the memory of the requests this server
	// serves at once, over REST and gRPC: each request body (a received
	// gRPC message) is charged [RequestAmplification] times its size, at
	// most the whole budget, before it is read or decoded, and the charge is
	// held until the request is answered (for a run, until the run ends).
	// A request past the budget is refused at once, before anything is
	// stored: RESOURCE_EXHAUSTED (SERVER_BUSY) with a RetryInfo, or 503
	// with Retry-After over REST. Requests without a body are not charged.
	// Default [DefaultMaxInflightRequestBytes]; negative means no bound.
	MaxInflightRequestBytes int64
	// MaxConcurrentInvocationsPerUser caps the invocations one user (app and
	// user id) runs at once on this server; one more is RESOURCE_EXHAUSTED
	// (USER_INVOCATION_LIMIT) before anything is stored. 0 means no cap.
	MaxConcurrentInvocationsPerUser int
	// UserRate is the requests per second one user (app and user id) may
	// make to this server, over every RPC and REST route that names a user,
	// in bursts of UserBurst (default: UserRate rounded up). Past it a
	// request is RESOURCE_EXHAUSTED (USER_RATE_LIMITED) with a RetryInfo.
	// 0 means no limit.
	UserRate  float64
	UserBurst int
	// MaxSessionsPerUser caps the sessions one user (app and user id) holds:
	// CreateSession of one more is RESOURCE_EXHAUSTED (USER_SESSION_LIMIT).
	// It is checked against the store's list of the user's sessions, so
	// creates racing on several replicas may pass it by a few. 0 means no
	// cap.
	MaxSessionsPerUser int
	// AuditLogger receives one line per call that changes state
	// (CreateSession, DeleteSession, UpdateSessionState, RewindSession, Run,
	// Connect, REST /run and /run_sse), refused calls included, from the
	// interceptors of [Server.RequestOptions] and the REST handler. Nil
	// means no audit log.
	AuditLogger *slog.Logger
	// Authenticator, when set, turns on authorisation: every call must
	// carry an identity (put there by [AuthOptions] on gRPC and by the REST
	// handler), which may act only for the user id that is its subject,
	// unless it is admin, and only an admin may write "app:" state. Any
	// other call is PERMISSION_DENIED before anything is read. Nil: every
	// caller may act for every user.
	Authenticator *auth.Authenticator
	// MeterProvider, when set, reports the open Connect streams and the
	// running invocations (agentsvc.connect.streams,
	// agentsvc.invocations.running). Default nil: none.
	MeterProvider metric.MeterProvider
}

// Per-user limits that agentsvc serve sets by default; a [Config] without
// them has none. They are far above what one person or a chatty client
// makes (ADK's web UI runs one invocation per session and sends about ten
// requests when a page opens), and low enough that one user cannot take a
// replica from others: 16 invocations at once are an eighth of the 128
// that raised another user's median latency from 2.8 ms to 126 ms on 2
// cores, 100 requests per second (bursts of 200) make 10,000 sessions take
// at least 100 s instead of 9, and 10,000 sessions bound what one user
// keeps in the store.
const (
	DefaultMaxConcurrentInvocationsPerUser = 16
	DefaultUserRate                        = 100
	DefaultUserBurst                       = 200
	DefaultMaxSessionsPerUser              = 10_000
)

// Defaults of [Config].
const (
	DefaultMaxInvocationTime   = 10 * time.Minute
	DefaultConnectStartTimeout = 10 * time.Second
	DefaultMaxConnectStreams   = 20000
)

// Server implements the agentsvc.v1 services. It is safe for concurrent use.
type Server struct {
	api.UnimplementedRunnerServiceServer
	api.UnimplementedSessionServiceServer
	api.UnimplementedAppServiceServer
	api.UnimplementedArtifactServiceServer

	apps      map[string]*App
	names     []string
	sessions  sessions.Service
	memory    memory.Service
	artifacts artifacts.Service
	log       *slog.Logger
	leaseTTL  time.Duration
	// busyWait is Config.SessionBusyWait with its default; zero: no wait.
	busyWait time.Duration
	owner    string
	// toolTimeout is Config.ToolTimeout; zero lets the tools package apply
	// its default.
	toolTimeout time.Duration
	// maxInvocationTime is Config.MaxInvocationTime with its default.
	maxInvocationTime time.Duration

	connectStart      time.Duration
	maxConnectStreams int64
	connectStreams    atomic.Int64

	// maxDepth is Config.MaxDepth with its default applied.
	maxDepth int

	maxResponseBytes int
	pageBytes        int

	// budget is nil without a bound on request bytes in flight.
	budget *requestBudget

	invocations tracker
	// userRate is nil without Config.UserRate.
	userRate *userLimiter
	// maxSessionsPerUser is Config.MaxSessionsPerUser; 0 means no cap.
	maxSessionsPerUser int
	// audit is Config.AuditLogger; nil means no audit log.
	audit *slog.Logger
	// authn is Config.Authenticator; nil: no authorisation.
	authn *auth.Authenticator
}

// New returns a server for the apps of cfg.
func New(cfg Config) *Server {
	s := &Server{
		apps:      make(map[string]*App, len(cfg.Apps)),
		sessions:  cfg.Sessions,
		memory:    cfg.Memory,
		artifacts: cfg.Artifacts,
		log:       cfg.Logger,
		leaseTTL:  cfg.LeaseTTL,
		owner:     uuid.NewString(),

		toolTimeout: cfg.ToolTimeout,

		connectStart:      cfg.ConnectStartTimeout,
		maxConnectStreams: int64(cfg.MaxConnectStreams),
		maxDepth:          cfg.MaxDepth,
		audit:             cfg.AuditLogger,
	}
	if s.connectStart <= 0 {
		s.connectStart = DefaultConnectStartTimeout
	}
	if s.maxConnectStreams == 0 {
		s.maxConnectStreams = DefaultMaxConnectStreams
	}
	if s.maxDepth <= 0 {
		s.maxDepth = limits.DefaultMaxDepth
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.maxResponseBytes = cmp.Or(max(cfg.MaxResponseBytes, 0), DefaultMaxResponseBytes)
	s.pageBytes = cmp.Or(max(cfg.PageBytes, 0), DefaultPageBytes)
	if s.leaseTTL <= 0 {
		s.leaseTTL = DefaultLeaseTTL
	}
	switch s.busyWait = cfg.SessionBusyWait; {
	case s.busyWait == 0:
		s.busyWait = DefaultSessionBusyWait
	case s.busyWait < 0:
		s.busyWait = 0
	}
	s.maxInvocationTime = cfg.MaxInvocationTime
	if s.maxInvocationTime <= 0 {
		s.maxInvocationTime = DefaultMaxInvocationTime
	}
	s.budget = newRequestBudget(cfg.MaxInflightRequestBytes)
	s.invocations.maxPerUser = max(cfg.MaxConcurrentInvocationsPerUser, 0)
	s.userRate = newUserLimiter(cfg.UserRate, cfg.UserBurst)
	s.maxSessionsPerUser = max(cfg.MaxSessionsPerUser, 0)
	s.authn = cfg.Authenticator
	for _, a := range cfg.Apps {
		s.apps[a.Info.Name] = a
		s.names = append(s.names, a.Info.Name)
	}
	sort.Strings(s.names)
	if cfg.MeterProvider != nil {
		if err := s.registerMetrics(cfg.MeterProvider); err != nil {
			s.log.Warn("server metrics not reported", "err", err)
		}
	}
	return s
}

// app returns the named app or a NOT_FOUND error.
func (s *Server) app(name string) (*App, error) {
	if err := validateAppName(name); err != nil {
		return nil, err
	}
	a := s.apps[name]
	if a == nil {
		return nil, &runtime.Error{Code: runtime.CodeNotFound, Reason: v1.ErrorReason_APP_NOT_FOUND.String(), Message: "App not found: " + name}
	}
	return a, nil
}
