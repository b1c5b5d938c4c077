// Command agentsvc serves ADK agents over gRPC and REST.
//
//	agentsvc serve [flags]
//
// Every flag can also be set through an AGENTSVC_* environment variable
// (--grpc-addr is AGENTSVC_GRPC_ADDR).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

func main() {
	os.Exit(run(os.Args[1:], os.Getenv))
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: agentsvc serve [flags]\n\nRun 'agentsvc serve -h' for the flags.")
}

func run(args []string, getenv func(string) string) int {
	if len(args) == 0 || args[0] != "serve" {
		usage()
		return 2
	}
	opts, err := parseFlags(args[1:], getenv)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentsvc:", err)
		return 2
	}
	log := slog.New(server.LogHandler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: opts.logLevel})))
	// The engine logs through the default logger, with the request's
	// context: its lines carry the request id too.
	slog.SetDefault(log)
	gc, err := newGCPolicy(opts.gogc, opts.memoryLimit, getenv, os.DirFS("/"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentsvc:", err)
		return 2
	}
	gc.apply(log)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := serve(ctx, opts, getenv, log); err != nil {
		log.Error("agentsvc failed", "err", err)
		return 1
	}
	return 0
}

// options are the serve flags.
type options struct {
	agents        string
	grpcAddr      string
	httpAddr      string
	sessions      string
	memory        string
	artifacts     string
	sessionTTL    time.Duration
	geminiBaseURL string
	shutdownGrace time.Duration
	debugAddr     string
	metricsAddr   string
	// traceBuffer is how many spans the dev UI's trace routes keep.
	traceBuffer int
	// devUI is the folder of ADK's web UI, served at /dev-ui/ when set.
	devUI string
	// a2a serves every app as an A2A agent; a2aURL is the public URL its
	// agent cards name.
	a2a    bool
	a2aURL string
	// conformanceDir turns on ADK's conformance replay (see package conformance).
	conformanceDir string
	toolTimeout    time.Duration
	// modelTimeout, maxModelResponseBytes and maxModelChunks bound each
	// model call; maxInvocationTime bounds each invocation.
	modelTimeout          time.Duration
	maxModelResponseBytes int64
	maxModelChunks        int
	maxInvocationTime     time.Duration
	// sessionLeaseTTL and sessionBusyWait govern a session's lease.
	sessionLeaseTTL time.Duration
	sessionBusyWait time.Duration
	// connectStartTimeout and maxConnectStreams bound Connect streams.
	connectStartTimeout time.Duration
	maxConnectStreams   int
	// maxUserInvocations caps one user's running invocations; 0: no cap.
	maxUserInvocations int
	// userRate and userBurst limit one user's requests; 0: off.
	userRate  float64
	userBurst int
	// maxUserSessions caps one user's sessions; 0: no cap.
	maxUserSessions int
	// maxInflightRequestBytes bounds the memory of requests in flight; 0: no bound.
	maxInflightRequestBytes int64
	// historySessions is -1 for the runtime's default.
	historySessions int
	historyBytes    int64
	logLevel        slog.Level
	// maxRequestBytes bounds a REST body and a received gRPC message.
	maxRequestBytes int
	allowOrigins    string
	httpBodyTimeout time.Duration
	// maxDepth caps the nesting of JSON-like values in every input.
	maxDepth int
	// Per-session caps and the Redis command timeout.
	maxSessionEvents int
	maxSessionBytes  int64
	redisTimeout     time.Duration
	// Transport security of both listeners; see tls.go.
	tlsCert, tlsKey, clientCA string
	insecureListen            bool
	// auditLog is off, stderr, stdout or a file path.
	auditLog string
	// gogc and memoryLimit set the garbage collector's policy; see gcpolicy.go.
	gogc        int
	memoryLimit string
	// Authentication; see auth.go.
	authMode, jwksURL, jwksFile, jwtIssuer, jwtAudience  string
	userClaim, adminScope, certIdentity, adminIdentities string
}

func parseFlags(args []string, getenv func(string) string) (*options, error) {
	fs := flag.NewFlagSet("agentsvc serve", flag.ContinueOnError)
	o := &options{}
	fs.StringVar(&o.agents, "agents", "", "directory with one sub-directory per app, each holding root_agent.yaml (default: the bundled example apps)")
	fs.StringVar(&o.grpcAddr, "grpc-addr", "127.0.0.1:50051", "gRPC listen address")
	fs.StringVar(&o.httpAddr, "http-addr", "127.0.0.1:8080", "REST listen address")
	fs.StringVar(&o.artifacts, "artifacts", "memory://", "artifact store: memory://, file:///dir, s3://bucket?region=R (endpoint=...&use_path_style=true for S3-compatible servers) or gs://bucket")
	fs.StringVar(&o.memory, "memory", "memory://", "memory service of load_memory, preload_memory and AddSessionToMemory: memory://, redis://host:port/db or redis+cluster://host:port,host:port (rediss:// and rediss+cluster:// for TLS)")
	fs.StringVar(&o.sessions, "sessions", "memory://", "session store: memory://, redis://host:port/db, or redis+cluster://host:port,host:port for Redis Cluster (rediss:// and rediss+cluster:// for TLS)")
	fs.DurationVar(&o.sessionTTL, "session-ttl", 0, "with Redis, expire a session this long after its last write (0 keeps sessions)")
	fs.StringVar(&o.geminiBaseURL, "gemini-base-url", "", "Gemini API endpoint override (also GOOGLE_GEMINI_BASE_URL)")
	fs.DurationVar(&o.shutdownGrace, "shutdown-grace", 30*time.Second, "how long running invocations may take to finish on SIGTERM")
	fs.DurationVar(&o.toolTimeout, "tool-timeout", tools.DefaultClientToolTimeout, "how long a Connect client may take to answer one tool call; then the model gets an error response")
	fs.DurationVar(&o.connectStartTimeout, "connect-start-timeout", server.DefaultConnectStartTimeout, "how long a new Connect stream may take to send its start message; then it ends DEADLINE_EXCEEDED")
	fs.IntVar(&o.maxConnectStreams, "max-connect-streams", server.DefaultMaxConnectStreams, "Connect streams open at once; one more ends RESOURCE_EXHAUSTED (0: no cap)")
	fs.Float64Var(&o.userRate, "user-rate", server.DefaultUserRate, "requests per second one user (app and user id) may make to this replica over every RPC and REST route naming a user; past it RESOURCE_EXHAUSTED with RetryInfo, 429 with Retry-After (0: off)")
	fs.IntVar(&o.userBurst, "user-burst", server.DefaultUserBurst, "requests one user may make at once above --user-rate (0: --user-rate rounded up)")
	fs.IntVar(&o.maxUserSessions, "max-sessions-per-user", server.DefaultMaxSessionsPerUser, "sessions one user (app and user id) may hold; CreateSession of one more is RESOURCE_EXHAUSTED (0: no cap)")
	fs.IntVar(&o.maxUserInvocations, "max-concurrent-invocations-per-user", server.DefaultMaxConcurrentInvocationsPerUser, "invocations one user (app and user id) may run at once on this replica; one more is RESOURCE_EXHAUSTED (0: no cap)")
	fs.Int64Var(&o.maxInflightRequestBytes, "max-inflight-request-bytes", server.DefaultMaxInflightRequestBytes, "memory that the requests served at once may take, each charged "+strconv.Itoa(server.RequestAmplification)+" times its body (received gRPC message) size until it is answered; past it RESOURCE_EXHAUSTED with RetryInfo, 503 with Retry-After (0: no bound)")
	fs.IntVar(&o.historySessions, "history-sessions", -1, "how many recently used sessions (per app) keep their history between invocations, in memory: the model contents built from it and, with Redis, its events, so that the next invocation reads only the events stored since, by any replica (0: none; default "+strconv.Itoa(runtime.DefaultHistorySessions)+")")
	fs.Int64Var(&o.historyBytes, "history-bytes", runtime.DefaultHistoryBytes, "with Redis, the most bytes (encoded) of events the kept histories of one app may hold; past it the least recently used sessions' go")
	fs.DurationVar(&o.modelTimeout, "model-timeout", 120*time.Second, "how long one model call (a whole streamed answer included) may take; then it fails with DEADLINE_EXCEEDED")
	fs.Int64Var(&o.maxModelResponseBytes, "max-model-response-bytes", gemini.DefaultMaxResponseBytes, "the most bytes one model answer (a response, or the sum of a stream's chunks) may have; past it the call fails with RESOURCE_EXHAUSTED")
	fs.IntVar(&o.maxModelChunks, "max-model-chunks", gemini.DefaultMaxChunks, "the most chunks one streamed model answer may have; past it the call fails with RESOURCE_EXHAUSTED")
	fs.DurationVar(&o.maxInvocationTime, "max-invocation-time", server.DefaultMaxInvocationTime, "how long one invocation (Run, Connect, /run, /run_sse) may take, its session lease included; then it fails with DEADLINE_EXCEEDED")
	fs.DurationVar(&o.sessionLeaseTTL, "session-lease-ttl", server.DefaultLeaseTTL, "how long a session stays busy after the replica running an invocation on it died (the other replicas take it over then); a running invocation renews its lease every fifth of it, and ends (ABORTED or UNAVAILABLE) when the session store cannot renew it for the whole ttl")
	fs.DurationVar(&o.sessionBusyWait, "session-busy-wait", server.DefaultSessionBusyWait, "how long a call on a session that runs another invocation (Run, Connect, /run, /run_sse, A2A, state PATCH, rewind) waits for that invocation to end before failing ABORTED \"session is busy\" (0: fail at once)")
	fs.StringVar(&o.debugAddr, "debug-addr", "", "serve Go runtime profiles (net/http/pprof) on this address; off when empty")
	fs.IntVar(&o.traceBuffer, "trace-buffer", 0, "keep the last N finished spans in memory and serve them on the dev UI's trace routes (/dev/apps/{app}/debug/trace/...); 0 turns it off")
	fs.StringVar(&o.devUI, "dev-ui", "", "serve ADK's web UI from this folder (make dev-ui installs it into .tools/dev-ui) at /dev-ui/ on the REST listener; off when empty")
	fs.BoolVar(&o.a2a, "a2a", false, "serve every app as an A2A agent at /a2a/{app_name} on the REST listener, its agent card at /a2a/{app_name}/.well-known/agent-card.json, as ADK's api_server --a2a does")
	fs.StringVar(&o.a2aURL, "a2a-url", "", "the service's public URL (scheme://host[:port]) that agent cards name; empty derives it from each card request's Host")
	fs.StringVar(&o.conformanceDir, "conformance-dir", "", "answer ADK's conformance protocol (_adk_replay_config in a run's state delta) from case directories under this directory; for tests only, off when empty")
	fs.StringVar(&o.metricsAddr, "metrics-addr", "", "serve GET /metrics (Prometheus text) on this address instead of the REST listener")
	fs.IntVar(&o.maxRequestBytes, "max-request-bytes", server.DefaultMaxRequestBytes, "largest REST request body and received gRPC message, in bytes; a REST body over it is answered 413")
	fs.StringVar(&o.allowOrigins, "allow-origins", "", "comma-separated browser origins (scheme://host[:port], or *) that may call the REST API besides the loopback ones; others are answered 403")
	fs.DurationVar(&o.httpBodyTimeout, "http-body-timeout", server.DefaultBodyReadTimeout, "how long a client may take to send a REST request body")
	fs.IntVar(&o.maxDepth, "max-depth", limits.DefaultMaxDepth, "how deep JSON-like values (state, state deltas, tool results, function call arguments, model responses) may nest; deeper input is rejected with INVALID_ARGUMENT, a deeper model response fails the model call")
	fs.IntVar(&o.maxSessionEvents, "max-session-events", sessions.DefaultMaxEvents, "most events one session may hold; a run that would store more fails with RESOURCE_EXHAUSTED (negative: no cap)")
	fs.Int64Var(&o.maxSessionBytes, "max-session-bytes", sessions.DefaultMaxBytes, "most bytes of encoded events one session may hold (negative: no cap)")
	fs.DurationVar(&o.redisTimeout, "redis-timeout", 500*time.Millisecond, "with Redis, how long to wait to connect and for each command's reply")
	fs.StringVar(&o.tlsCert, "tls-cert", "", "PEM certificate (chain) both listeners serve TLS with, reloaded when the file changes; needs --tls-key")
	fs.StringVar(&o.tlsKey, "tls-key", "", "PEM private key of --tls-cert")
	fs.StringVar(&o.clientCA, "client-ca", "", "PEM CA certificates; with it both listeners require client certificates that chain to them (mTLS); needs --tls-cert")
	fs.BoolVar(&o.insecureListen, "insecure-listen", false, "allow listening on a non-loopback address without TLS")
	fs.StringVar(&o.authMode, "auth", "none", "authentication of callers: none, or jwt (authorization: Bearer tokens; each caller acts only for the user its token names)")
	fs.StringVar(&o.jwksURL, "jwks-url", "", "with --auth jwt, the JWKS URL of the token signing keys, fetched again for an unknown key id (at most every 10s)")
	fs.StringVar(&o.jwksFile, "jwks-file", "", "with --auth jwt, a JWKS file of the token signing keys, read again when it changes")
	fs.StringVar(&o.jwtIssuer, "jwt-issuer", "", "with --auth jwt, the issuer (iss) tokens must carry")
	fs.StringVar(&o.jwtAudience, "jwt-audience", "", "with --auth jwt, the audience (aud) tokens must carry")
	fs.StringVar(&o.userClaim, "user-claim", "sub", "with --auth jwt, the token claim that holds the caller's user id")
	fs.StringVar(&o.adminScope, "admin-scope", "", "with --auth jwt, a token scope that lets the caller act for every user and write app: state (off when empty)")
	fs.StringVar(&o.certIdentity, "cert-identity", "", "with --client-ca, map a client certificate without a token to a user id: spiffe (its SPIFFE ID) or subject (its common name); off when empty")
	fs.StringVar(&o.adminIdentities, "admin-identities", "", "comma-separated certificate identities (see --cert-identity) that may act for every user and write app: state")
	fs.TextVar(&o.logLevel, "log-level", slog.LevelInfo, "log level: debug, info, warn or error")
	fs.StringVar(&o.auditLog, "audit-log", "off", "where to write the audit log, one JSON line per call that changes state (sessions created, deleted, patched, rewound; invocations), refused calls included: off, stderr, stdout or a file path appended to")
	fs.IntVar(&o.gogc, "gogc", 0, "the garbage collector's target, as GOGC: a collection when the heap has grown this many percent over what was live after the last (0: "+strconv.Itoa(defaultGOGC)+", or GOGC when set)")
	fs.StringVar(&o.memoryLimit, "memory-limit", "auto", "soft limit of the process's Go memory, as GOMEMLIMIT (e.g. 1536MiB): past it the collector runs more often; auto: GOMEMLIMIT when set, else "+strconv.Itoa(int(memoryLimitShare*100))+"% of the container's (cgroup) memory limit, none without one; off: none")
	// Environment first, so that flags on the command line win.
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := "AGENTSVC_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := getenv(name); v != "" && envErr == nil {
			if err := f.Value.Set(v); err != nil {
				envErr = fmt.Errorf("%s: %w", name, err)
			}
		}
	})
	if envErr != nil {
		return nil, envErr
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if o.maxDepth < 1 {
		return nil, fmt.Errorf("--max-depth %d: must be at least 1", o.maxDepth)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.maxInflightRequestBytes < 0 {
		return nil, fmt.Errorf("--max-inflight-request-bytes must not be negative, not %d", o.maxInflightRequestBytes)
	}
	if o.maxRequestBytes <= 0 {
		return nil, fmt.Errorf("--max-request-bytes must be positive, not %d", o.maxRequestBytes)
	}
	if err := checkModelLimits(o); err != nil {
		return nil, err
	}
	if err := checkSessionLease(o); err != nil {
		return nil, err
	}
	if err := checkTransport(o); err != nil {
		return nil, err
	}
	if err := checkAuth(o); err != nil {
		return nil, err
	}
	return o, nil
}

// checkModelLimits rejects limits of model calls and invocations that are
// not positive: each must bound something.
func checkModelLimits(o *options) error {
	switch {
	case o.modelTimeout <= 0:
		return fmt.Errorf("--model-timeout %s: must be positive", o.modelTimeout)
	case o.maxModelResponseBytes <= 0:
		return fmt.Errorf("--max-model-response-bytes %d: must be positive", o.maxModelResponseBytes)
	case o.maxModelChunks <= 0:
		return fmt.Errorf("--max-model-chunks %d: must be positive", o.maxModelChunks)
	case o.maxInvocationTime <= 0:
		return fmt.Errorf("--max-invocation-time %s: must be positive", o.maxInvocationTime)
	}
	return nil
}

// maxSessionBusyWait bounds --session-busy-wait: a call waiting longer
// holds its connection and its user's invocation slot for what a retry
// would do as well. The wait also ends with the call's deadline and
// --max-invocation-time.
const maxSessionBusyWait = time.Minute

// checkSessionLease rejects a lease ttl too short to be renewed (every
// fifth of it, each attempt taking up to --redis-timeout) and a busy wait
// that is negative or past maxSessionBusyWait.
func checkSessionLease(o *options) error {
	switch {
	case o.sessionLeaseTTL < time.Second:
		return fmt.Errorf("--session-lease-ttl %s: must be at least 1s", o.sessionLeaseTTL)
	case o.sessionLeaseTTL <= 2*o.redisTimeout:
		return fmt.Errorf("--session-lease-ttl %s: must be longer than twice --redis-timeout (%s), so that a renewal that times out can be retried", o.sessionLeaseTTL, o.redisTimeout)
	case o.sessionBusyWait < 0 || o.sessionBusyWait > maxSessionBusyWait:
		return fmt.Errorf("--session-busy-wait %s: must be from 0 to %s", o.sessionBusyWait, maxSessionBusyWait)
	}
	return nil
}
