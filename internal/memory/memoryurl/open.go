// Package memoryurl opens a [memory.Service] by URL, the value of a
// --memory flag: memory:// for the in-memory store, redis://, rediss://,
// redis+cluster:// or rediss+cluster:// for Redis. It sits apart from
// package memory so that the backends, which implement memory's interface,
// need not be imported by whoever only uses it.
package memoryurl

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/memory/inmemory"
	"github.com/agentsvc/agentsvc/internal/memory/redis"
)

// Options configure the store [Open] opens. The zero value is valid.
type Options struct {
	// Limits bound the store, whichever it is; the zero value applies the
	// defaults of [memory.Limits].
	Limits memory.Limits
	// Redis configures a Redis store; its Limits field is ignored in
	// favour of Limits.
	Redis redis.Options
}

// Open returns the store url names: "memory://" (the in-memory store of
// package inmemory), or a Redis URL as [redis.New] takes it. It does not
// contact the store (see [memory.Service.Ping]). Errors never repeat the
// URL, which may hold a password.
func Open(ctx context.Context, url string, opts Options) (memory.Service, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("memory.open: %w", err)
	}
	scheme, _, _ := strings.Cut(url, "://")
	switch scheme {
	case "memory":
		if url != "memory://" {
			return nil, fmt.Errorf("memory.open: the in-memory store takes no host, path or parameters: use memory://")
		}
		return inmemory.New(inmemory.WithLimits(opts.Limits)), nil
	case "redis", "rediss", "redis+cluster", "rediss+cluster":
		ro := opts.Redis
		ro.Limits = opts.Limits
		s, err := redis.New(url, ro)
		if err != nil {
			return nil, fmt.Errorf("memory.open: %w", err)
		}
		return s, nil
	}
	return nil, fmt.Errorf("memory.open: scheme %q: use memory://, redis://host:port/db or redis+cluster://host:port,host:port", redactScheme(scheme))
}

// redactScheme keeps an unknown scheme out of errors when it is not one:
// a URL without "://" may be anything, a password included.
func redactScheme(scheme string) string {
	for _, c := range scheme {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') || len(scheme) > 32 {
			return "?"
		}
	}
	return scheme
}
