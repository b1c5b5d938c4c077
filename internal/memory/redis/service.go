// Package redis is a [memory.Service] on Redis (6.2 or later), for
// deployments where several replicas share memories.
//
// Each app and user has an inverted index: per word, a sorted set of the
// user's entries holding it, scored by their place in search order (the
// session's when it was first added, then the event's within the session).
// A search reads the sets of the query's words only, unites them in that
// order on the server, and fetches the first entries of the union; it never
// scans the user's other memories. Adding a session writes its entries and
// their words and removes those it replaces in one Lua script, all or
// nothing.
//
// All keys of one app and user share a Redis Cluster hash tag, so every
// script runs on one node of a cluster ([New] with a redis+cluster:// URL).
// See keyspace for the keys.
//
// When Redis cannot be reached, operations fail with errors wrapping
// [memory.ErrUnavailable]; the client reconnects by itself.
package redis

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/redis/go-redis/extra/redisotel/v9"
	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentsvc/agentsvc/internal/memory"
)

// DefaultKeyPrefix starts every key when [Options.KeyPrefix] is empty; the
// session store's default, with whose keys these never collide.
const DefaultKeyPrefix = "as"

// Options configure a [Service]. The zero value is valid: the default key
// prefix and limits, and the URL's (or go-redis's) timeouts and pool size.
type Options struct {
	// KeyPrefix starts every key, so several deployments can share one
	// database; it must not hold braces. Default [DefaultKeyPrefix].
	KeyPrefix string
	// Limits bound the store; the zero value applies the defaults of
	// [memory.Limits].
	Limits memory.Limits
	// DialTimeout bounds connecting. Default: the URL's dial_timeout, else
	// go-redis's 5s.
	DialTimeout time.Duration
	// ReadTimeout bounds waiting for a reply. Default: the URL's
	// read_timeout, else go-redis's 3s.
	ReadTimeout time.Duration
	// WriteTimeout bounds sending a command. Default: the URL's
	// write_timeout, else ReadTimeout.
	WriteTimeout time.Duration
	// PoolSize is the number of connections kept per node. Default: the
	// URL's pool_size, else 10 per GOMAXPROCS.
	PoolSize int
	// MaxRetries is how often a command is retried on a network error; -1
	// disables retries. Default: the URL's max_retries, else 3.
	MaxRetries int
	// TracerProvider, when set, traces every Redis command as a span (its
	// name, not its arguments, which hold users' words). Default nil: no
	// spans.
	TracerProvider trace.TracerProvider
}

// Service is a [memory.Service] on Redis. It is safe for concurrent use. A
// Service holds a connection pool; share one per process and Close it on
// shutdown.
type Service struct {
	client goredis.UniversalClient
	keys   keyspace
	limits memory.Limits
}

var _ memory.Service = (*Service)(nil)

// New connects to the Redis at url: redis://[user:password@]host:port/db,
// or rediss:// for TLS, with go-redis's optional query parameters
// (dial_timeout, pool_size, ...); or to a Redis Cluster through seed nodes
// at redis+cluster://[user:password@]host:port,host:port,... (or
// rediss+cluster://), with go-redis's cluster parameters. The session
// store's wait_replicas and wait_timeout are accepted, so that one URL
// serves both stores, and ignored: memory writes do not wait for replicas.
// Non-zero fields of opts override the URL. It does not contact the server;
// see [Service.Ping]. Errors never repeat the URL's user or password.
func New(url string, opts Options) (*Service, error) {
	if strings.ContainsAny(opts.KeyPrefix, "{}") {
		// A brace would move the hash tag off the user's name.
		return nil, fmt.Errorf("memory.redis: key prefix %q holds a brace", opts.KeyPrefix)
	}
	client, err := newClient(url, opts)
	if err != nil {
		return nil, fmt.Errorf("memory.redis: %w", err)
	}
	return NewFromClient(client, opts), nil
}

// NewFromClient builds a Service on a client the caller configured, a
// single node's or a cluster's. The Service owns the client from then on
// and closes it in Close. Of opts, only KeyPrefix, Limits and
// TracerProvider apply. Enable ContextTimeoutEnabled on the client so that
// cancellation reaches Redis.
func NewFromClient(client goredis.UniversalClient, opts Options) *Service {
	prefix := opts.KeyPrefix
	if prefix == "" {
		prefix = DefaultKeyPrefix
	}
	if opts.TracerProvider != nil {
		// InstrumentTracing fails only for client types it does not know.
		_ = redisotel.InstrumentTracing(client, redisotel.WithTracerProvider(opts.TracerProvider),
			redisotel.WithDBStatement(false), redisotel.WithCallerEnabled(false), redisotel.WithDialFilter(true))
	}
	return &Service{client: client, keys: keyspace{prefix: prefix}, limits: opts.Limits.Resolved()}
}

// Ping implements [memory.Service]: it checks that Redis answers, for
// readiness probes.
func (s *Service) Ping(ctx context.Context) error {
	return classify(ctx, "memory.ping", s.client.Ping(ctx).Err())
}

// Close closes the connection pool.
func (s *Service) Close() error {
	return s.client.Close()
}
