package server

import (
	"cmp"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/metric"

	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

// Config configures a [Server]. A field left zero takes the default its
// comment names; [New] applies them all in one place.
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
	// result by then is answered with an error the model reads. It bounds
	// the client's callbacks, code and workflow nodes too. Default
	// [tools.DefaultClientToolTimeout], 60s.
	ToolTimeout time.Duration
	// MaxInvocationTime bounds every invocation (Run, Connect, REST /run and
	// /run_sse) and the session lease it holds; past it the invocation
	// fails with DEADLINE_EXCEEDED. Default [DefaultMaxInvocationTime].
	MaxInvocationTime time.Duration
	// ConnectStartTimeout bounds the wait for a Connect stream's start
	// message; a stream without one by then ends DEADLINE_EXCEEDED.
	// Default [DefaultConnectStartTimeout].
	ConnectStartTimeout time.Duration
	// MaxConnectStreams caps the Connect streams open at once, from their
	// first byte to their end; one more ends RESOURCE_EXHAUSTED at once.
	// Default [DefaultMaxConnectStreams]; negative means no cap.
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

// Defaults of the session lease; see [Config.LeaseTTL] and
// [Config.SessionBusyWait].
const (
	// DefaultLeaseTTL lets another replica take a session over about 5 s
	// after the replica running an invocation on it died, while a running
	// invocation, renewing every second, keeps its lease through a store
	// outage of about 4 s.
	DefaultLeaseTTL = 5 * time.Second
	// DefaultSessionBusyWait covers the end of an invocation whose client
	// went away (noticing the cancellation, storing nothing more, one store
	// round trip to release) several times over on a loaded replica, and
	// keeps the refusal of a real second invocation prompt.
	DefaultSessionBusyWait = 2 * time.Second
)

// Response limits of GetSession; see [Config.MaxResponseBytes] and
// [Config.PageBytes].
const (
	// DefaultMaxResponseBytes is the gRPC send limit agentsvc serves with.
	DefaultMaxResponseBytes = 64 << 20
	// DefaultPageBytes is gRPC's default receive limit, so that a client
	// with default settings can always read a page.
	DefaultPageBytes = 4 << 20
)

// DefaultMaxInflightRequestBytes is the default budget of request memory
// in flight (see [Config.MaxInflightRequestBytes]): 16 bodies of the
// default maximum size, so that four maximum-size requests, each charged
// [RequestAmplification] times its size, are served at once, and tens of
// thousands of ordinary ones (a few KiB each).
const DefaultMaxInflightRequestBytes = 16 * DefaultMaxRequestBytes

// settings are what a [Server] runs with: the values of a [Config] with
// their defaults applied, and its negative values, which turn a bound
// off, made zero. A zero bound, wait or rate in settings means none.
type settings struct {
	log *slog.Logger

	leaseTTL time.Duration
	// busyWait is zero for no wait.
	busyWait time.Duration
	// toolTimeout bounds the client's tool calls, callbacks, code and
	// nodes. A negative one is kept: the tool calls take it for their
	// own default, the others time out at once.
	toolTimeout       time.Duration
	maxInvocationTime time.Duration

	connectStart      time.Duration
	maxConnectStreams int64

	maxDepth         int
	maxResponseBytes int
	pageBytes        int

	maxInflightRequestBytes int64

	maxInvocationsPerUser int
	userRate              float64
	userBurst             int
	maxSessionsPerUser    int
}

// newSettings applies the defaults of cfg: the one place where a field
// left zero takes its default and a negative one turns its bound off.
func newSettings(cfg Config) settings {
	s := settings{
		log:               cmp.Or(cfg.Logger, slog.Default()),
		leaseTTL:          orDefault(cfg.LeaseTTL, DefaultLeaseTTL),
		toolTimeout:       cmp.Or(cfg.ToolTimeout, tools.DefaultClientToolTimeout),
		maxInvocationTime: orDefault(cfg.MaxInvocationTime, DefaultMaxInvocationTime),
		connectStart:      orDefault(cfg.ConnectStartTimeout, DefaultConnectStartTimeout),
		maxDepth:          orDefault(cfg.MaxDepth, limits.DefaultMaxDepth),
		maxResponseBytes:  orDefault(cfg.MaxResponseBytes, DefaultMaxResponseBytes),
		pageBytes:         orDefault(cfg.PageBytes, DefaultPageBytes),

		busyWait:                zeroDefault(cfg.SessionBusyWait, DefaultSessionBusyWait),
		maxConnectStreams:       zeroDefault(int64(cfg.MaxConnectStreams), DefaultMaxConnectStreams),
		maxInflightRequestBytes: zeroDefault(cfg.MaxInflightRequestBytes, DefaultMaxInflightRequestBytes),

		maxInvocationsPerUser: max(cfg.MaxConcurrentInvocationsPerUser, 0),
		maxSessionsPerUser:    max(cfg.MaxSessionsPerUser, 0),
	}
	if cfg.UserRate > 0 {
		s.userRate, s.userBurst = cfg.UserRate, cfg.UserBurst
		if s.userBurst < 1 {
			s.userBurst = max(1, int(math.Ceil(cfg.UserRate)))
		}
	}
	return s
}

// orDefault is v, or def when v is not positive.
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// zeroDefault is v, def when v is zero, and zero (none) when v is negative.
func zeroDefault[T int | int64 | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// DefaultMaxRequestBytes is the default bound of a REST request body, the
// same as the gRPC server's bound on a received message.
const DefaultMaxRequestBytes = 16 << 20

// DefaultBodyReadTimeout is the default time a client has to send a REST
// request body.
const DefaultBodyReadTimeout = 60 * time.Second

// HTTPOption configures [Server.HTTPHandler].
type HTTPOption interface{ apply(*httpConfig) }

type httpConfig struct {
	maxRequestBytes int64
	bodyReadTimeout time.Duration
	allowOrigins    []string
	listenAddr      string
	metrics         http.Handler
	devUI           fs.FS
	traces          *tracebuffer.Buffer
	a2a             bool
	a2aBaseURL      string
}

// newHTTPConfig is the one place where the options of
// [Server.HTTPHandler] meet their defaults.
func newHTTPConfig(opts []HTTPOption) httpConfig {
	cfg := httpConfig{maxRequestBytes: DefaultMaxRequestBytes, bodyReadTimeout: DefaultBodyReadTimeout}
	for _, o := range opts {
		o.apply(&cfg)
	}
	return cfg
}

type httpOptionFunc func(*httpConfig)

func (f httpOptionFunc) apply(c *httpConfig) { f(c) }

// WithMaxRequestBytes bounds every REST request body to n bytes: a larger
// one is answered 413 with RESOURCE_EXHAUSTED, after reading at most n+1
// bytes of it. Default [DefaultMaxRequestBytes].
func WithMaxRequestBytes(n int64) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) {
		if n > 0 {
			c.maxRequestBytes = n
		}
	})
}

// WithBodyReadTimeout bounds the time a client may take to send a request
// body, so that a slow body does not hold a connection open forever; the
// response, however long, is not bounded. Zero or less leaves body reads
// unbounded. Default [DefaultBodyReadTimeout].
func WithBodyReadTimeout(d time.Duration) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) { c.bodyReadTimeout = d })
}

// WithAllowOrigins sets the origins (scheme://host[:port], or "*" for any)
// whose browsers may call the REST API, as ADK's allow_origins does. The
// loopback origins (http and https on localhost, 127.0.0.1 and [::1], any
// port) are always allowed.
func WithAllowOrigins(origins []string) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) { c.allowOrigins = append([]string(nil), origins...) })
}

// WithListenAddr tells the handler the address it is served on. On a
// loopback address (the default) only requests whose Host is a loopback
// name, this address or an allowed origin's host are served, against DNS
// rebinding; on any other address Host is not restricted.
func WithListenAddr(addr string) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) { c.listenAddr = addr })
}

// WithMetrics serves h at GET /metrics (HEAD too), behind the Host and
// Origin checks but without authentication: scrapers need no token, as
// probes of /health need none.
func WithMetrics(h http.Handler) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) { c.metrics = h })
}

// WithDevUI serves ADK's web UI (the built files of google-adk's
// cli/browser folder, index.html at the top) at /dev-ui/, with its runtime
// config pointing at this server, and redirects / there, as `adk web` does.
// The files are served to every caller; the API routes they call are
// authenticated as usual.
func WithDevUI(files fs.FS) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) { c.devUI = files })
}

// WithTraces serves ADK's trace routes of the web UI
// (/dev/apps/{app}/debug/trace/...) from the spans buf keeps; without it
// they answer 501.
func WithTraces(buf *tracebuffer.Buffer) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) { c.traces = buf })
}

// WithA2A serves every app as an A2A agent, as ADK's api_server --a2a
// does: JSON-RPC at POST /a2a/{app_name} and the agent card at GET
// /a2a/{app_name}/.well-known/agent-card.json, behind the same guard,
// authentication and body limits as the other routes. baseURL is the
// service's public URL the cards name; empty derives it from each card
// request.
func WithA2A(baseURL string) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) { c.a2a, c.a2aBaseURL = true, baseURL })
}
