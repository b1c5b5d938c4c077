package redis

import (
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/agentsvc/agentsvc/internal/redisurl"
)

// The session store's parameters, ignored here; see [New].
var sessionOnlyParams = []string{"wait_replicas", "wait_timeout"}

// newClient makes the client url names, with opts's connection settings.
func newClient(raw string, opts Options) (goredis.UniversalClient, error) {
	single, cluster, _, err := redisurl.Parse(raw, sessionOnlyParams...)
	if err != nil {
		return nil, fmt.Errorf("parse url: %w", err)
	}
	if cluster != nil {
		opts.override(&cluster.DialTimeout, &cluster.ReadTimeout, &cluster.WriteTimeout, &cluster.PoolSize, &cluster.MaxRetries)
		cluster.DisableIdentity, cluster.ContextTimeoutEnabled = true, true
		return goredis.NewClusterClient(cluster), nil
	}
	opts.override(&single.DialTimeout, &single.ReadTimeout, &single.WriteTimeout, &single.PoolSize, &single.MaxRetries)
	// Managed servers often refuse CLIENT SETINFO, and callers'
	// deadlines and cancellation must reach the socket.
	single.DisableIdentity, single.ContextTimeoutEnabled = true, true
	return goredis.NewClient(single), nil
}

// override sets the connection settings opts gives (those that are not zero)
// over a client's parsed from its URL.
func (opts Options) override(dial, read, write *time.Duration, pool, retries *int) {
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
