// Package redis is a [sessions.Service] on Redis, for deployments where
// several replicas share sessions.
//
// Events are appended, never rewritten, as protobuf to a list per session;
// state lives in hashes per scope with JSON values. Every write is one Lua
// script, so it is one round trip and all or nothing: an append checks the
// handle's version, pushes the event, indexes its timestamp, applies the
// delta to the session, user and app scopes, bumps the version and refreshes
// the TTL, or does none of it. Reads of the last N events, or of the events
// after a timestamp, touch only those events, and so does a tail read
// ([Service.GetTail]) of the events past those a caller read before.
//
// # Deployment
//
// All keys of one session share a hash tag, so they sit in one slot. On one
// Redis node (a standalone server, or a primary with replicas: the managed
// offerings in their non-clustered modes) app and user state sit in slots of
// their own, and the scripts that create, read and append touch them
// together with the session's keys.
//
// On Redis Cluster ([NewCluster], or [New] with a redis+cluster:// URL) the
// hash tag is the user's instead, so user state and the user's session index
// share the session's slot and every script still runs on one primary; only
// app state lives elsewhere. An append that writes app: keys writes them in
// a second round trip once its script succeeded (the session's part is all
// or nothing, the app's follows it), and reads fetch app state concurrently
// with the session. See keyspace for the keys. The client follows MOVED and
// ASK redirections and failovers, and loads scripts on any primary that
// lacks them.
//
// # Durability
//
// Redis replicates asynchronously: a primary that dies right after a write
// can take it with it when a replica takes over. With [Options.WaitReplicas]
// (on by default on a cluster) every write is followed by WAIT on the same
// connection, in the same round trip, and is acknowledged only once that many
// replicas hold it; otherwise it fails with [sessions.ErrUnavailable] after
// [Options.WaitTimeout], although the primary applied it (a retry of the
// same append is recognised). A cluster primary that has no replica at all
// (a replica just promoted in a failover, whose old primary is gone, or one
// whose only replica failed) acknowledges writes without waiting, since no
// failover can lose them, so a shard takes writes again at the promotion; a
// replica that is listed but cut off or still syncing is waited for.
//
// # Failures
//
// When Redis cannot be reached, operations fail with errors wrapping
// [sessions.ErrUnavailable] and nothing is half written; the client
// reconnects by itself once the server is back. A circuit breaker around
// every command (on a cluster, one per node) makes a Redis that is down or
// hung cost milliseconds per call rather than a timeout: after a few
// consecutive failures calls fail at once, and a single probe call per
// cooldown finds out when Redis is back. A write whose reply was lost may
// have been applied: retrying the same append (same event id) through the
// same handle is detected and succeeds without storing the event twice.
//
// On a cluster, a primary that dies fails only its own shard's sessions:
// a node that does not answer makes the client learn the slot map anew,
// so it follows the replica Redis promotes within milliseconds; app state
// is read from a replica while its primary is down (writes of app: keys
// wait for the promotion); and [Service.Ping] succeeds while any node
// answers. Run the cluster with cluster-require-full-coverage no, or Redis
// itself refuses every shard (CLUSTERDOWN) between a primary's failure and
// its replica's promotion.
package redis

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentsvc/agentsvc/internal/redisurl"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// DefaultKeyPrefix starts every key when [Options.KeyPrefix] is empty.
const DefaultKeyPrefix = "as"

// Options configure a [Service]. The zero value is valid: no TTL, the default
// key prefix, and the URL's (or go-redis's) timeouts and pool size.
type Options struct {
	// KeyPrefix starts every key the service writes, so several deployments
	// can share one database. Default [DefaultKeyPrefix].
	KeyPrefix string
	// TTL, when positive, expires a session's keys TTL after its last create
	// or append; each write refreshes it. App and user state never expire.
	// Default 0: sessions are kept until deleted.
	TTL time.Duration
	// DialTimeout bounds connecting. Default: the URL's dial_timeout, else 5s.
	DialTimeout time.Duration
	// ReadTimeout bounds waiting for a reply. Default: the URL's
	// read_timeout, else go-redis's default (3s or more).
	ReadTimeout time.Duration
	// WriteTimeout bounds sending a command. Default: the URL's
	// write_timeout, else ReadTimeout.
	WriteTimeout time.Duration
	// PoolSize is the number of connections kept per replica. Default: the
	// URL's pool_size, else 10 per GOMAXPROCS.
	PoolSize int
	// MaxRetries is how often a command is retried on a network error; -1
	// disables retries. Default: the URL's max_retries, else 3.
	MaxRetries int
	// BreakerFailures is how many consecutive network failures or timeouts
	// open the circuit breaker, which then fails calls at once with
	// [sessions.ErrUnavailable] instead of waiting on a Redis that is down
	// or hung. Default [DefaultBreakerFailures]; negative disables it.
	BreakerFailures int
	// BreakerCooldown is how long the breaker stays open before it lets one
	// call through to probe Redis. Default [DefaultBreakerCooldown].
	BreakerCooldown time.Duration
	// Limits bound every session; the zero value applies the defaults of
	// [sessions.Limits].
	Limits sessions.Limits
	// Logger receives warnings, such as a lease lost to expiry. Default
	// slog.Default().
	Logger *slog.Logger
	// WaitReplicas is how many replicas must hold a write before it is
	// acknowledged (Redis WAIT). Default: the URL's wait_replicas, else 1 on
	// Redis Cluster and none on a single node; negative disables it.
	WaitReplicas int
	// WaitTimeout bounds that wait. Default: the URL's wait_timeout, else
	// [DefaultWaitTimeout]; at most half the read timeout, so that the reply
	// arrives before the connection gives up on it.
	WaitTimeout time.Duration
	// TracerProvider, when set, traces every Redis command as a span (the
	// command's name, not its arguments, which hold users' data). Default
	// nil: no spans.
	TracerProvider trace.TracerProvider
}

// Service is a [sessions.Service] on Redis. It is safe for concurrent use.
// A Service holds a connection pool; share one per process and Close it on
// shutdown.
type Service struct {
	client goredis.UniversalClient
	// topo finds the nodes that hold a key, for writes that wait for
	// replicas and reads of app state while its primary is down.
	topo topology
	wait waitPolicy
	// replicas remembers the cluster primaries without a replica; see
	// replicas.go.
	replicas replicaCounts
	// backlog holds app state writes that failed after their event was
	// stored, on a cluster; see appbacklog.go.
	backlog appBacklog
	keys    keyspace
	ttlMS   int64
	limits  sessions.Limits
	log     *slog.Logger
	now     func() time.Time

	// leases tracks the renewal goroutines so that Close can stop them.
	mu      sync.Mutex
	closed  bool
	renewal sync.WaitGroup
	stop    chan struct{}
}

var _ sessions.Service = (*Service)(nil)

// New connects to the Redis at url: redis://[user:password@]host:port/db, or
// rediss:// for TLS, with go-redis's optional query parameters
// (dial_timeout, pool_size, ...). Non-zero fields of opts override the URL.
// It does not contact the server; see [Service.Ping].
//
// redis+cluster://[user:password@]host:port,host:port,... (rediss+cluster://
// for TLS) connects to a Redis Cluster through those seed nodes; see
// [NewCluster]. Both schemes also take wait_replicas and wait_timeout (see
// [Options.WaitReplicas]). Errors never repeat the URL's user or password.
func New(url string, opts Options) (*Service, error) {
	single, cluster, err := parseURL(url, &opts)
	if err != nil {
		return nil, err
	}
	if cluster != nil {
		return newCluster(cluster, opts)
	}
	opts.overrideConn(&single.DialTimeout, &single.ReadTimeout, &single.WriteTimeout, &single.PoolSize, &single.MaxRetries)
	// Managed servers often refuse CLIENT SETINFO; the library identity is
	// of no use to us.
	single.DisableIdentity = true
	// Let callers' deadlines and cancellation reach the socket.
	single.ContextTimeoutEnabled = true
	return NewFromClient(goredis.NewClient(single), opts), nil
}

// parseURL reads a store URL into the options of a single node's client or
// a cluster's, one of them nil, and sets the fields of opts its wait
// parameters stand for (see [takeWait]). The error holds no password.
func parseURL(raw string, opts *Options) (*goredis.Options, *goredis.ClusterOptions, error) {
	single, cluster, params, err := redisurl.Parse(raw, waitParams...)
	if err == nil {
		err = takeWait(params, opts)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("sessions.redis: parse url: %w", err)
	}
	return single, cluster, nil
}

// overrideConn sets the connection settings opts gives (those that are not
// zero) over a client's, single or cluster, parsed from its URL.
func (opts Options) overrideConn(dial, read, write *time.Duration, pool, retries *int) {
	if opts.DialTimeout > 0 {
		*dial = opts.DialTimeout
	}
	if opts.ReadTimeout > 0 {
		*read = opts.ReadTimeout
	}
	if opts.WriteTimeout > 0 {
		*write = opts.WriteTimeout
	}
	if opts.PoolSize > 0 {
		*pool = opts.PoolSize
	}
	if opts.MaxRetries != 0 {
		*retries = opts.MaxRetries
	}
}

// NewFromClient builds a Service on a client the caller configured. The
// Service owns the client from then on and closes it in Close. Of opts, only
// KeyPrefix, TTL, Limits, the breaker's settings, the wait for replicas,
// Logger and TracerProvider apply. Enable ContextTimeoutEnabled on the
// client so that cancellation reaches Redis.
func NewFromClient(client *goredis.Client, opts Options) *Service {
	if b := newBreaker(opts); b != nil {
		client.AddHook(breakerHook{b})
	}
	return newService(client, singlePrimary{client}, opts, false, client.Options().ReadTimeout)
}

// newService builds a Service on client, whose breakers are in place.
func newService(client goredis.UniversalClient, topo topology, opts Options, cluster bool, readTimeout time.Duration) *Service {
	prefix := opts.KeyPrefix
	if prefix == "" {
		prefix = DefaultKeyPrefix
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	var ttlMS int64
	if opts.TTL > 0 {
		ttlMS = max(opts.TTL.Milliseconds(), 1)
	}
	if opts.TracerProvider != nil {
		instrumentTracing(client, opts.TracerProvider)
	}
	return &Service{
		client: client,
		topo:   topo,
		wait:   resolveWait(opts, cluster, readTimeout),
		keys:   keyspace{prefix: prefix, cluster: cluster},
		ttlMS:  ttlMS,
		limits: opts.Limits.Resolved(),
		log:    logger,
		now:    time.Now,
		stop:   make(chan struct{}),
	}
}

// newBreaker returns the circuit breaker opts ask for, or nil.
func newBreaker(opts Options) *breaker {
	if opts.BreakerFailures < 0 {
		return nil
	}
	b := &breaker{failures: opts.BreakerFailures, cooldown: opts.BreakerCooldown, now: time.Now}
	if b.failures == 0 {
		b.failures = DefaultBreakerFailures
	}
	if b.cooldown <= 0 {
		b.cooldown = DefaultBreakerCooldown
	}
	return b
}

// Ping implements [sessions.Service]: it checks that Redis answers, for
// readiness probes. On Redis Cluster it succeeds while any node answers:
// a shard that fails over leaves the others serving their sessions, and a
// process that reaches none of them is the one to take out of service.
// While the circuit breakers are open it fails at once.
func (s *Service) Ping(ctx context.Context) error {
	return classify(ctx, "sessions.ping", s.topo.ping(ctx))
}

// Close stops lease renewal, without releasing the leases (they expire), and
// closes the connection pool. Calling it again returns nil.
func (s *Service) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.stop)
	s.mu.Unlock()
	s.renewal.Wait()
	return s.client.Close()
}
