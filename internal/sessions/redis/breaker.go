package redis

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// Breaker defaults; see [Options.BreakerFailures].
const (
	DefaultBreakerFailures = 3
	DefaultBreakerCooldown = time.Second
)

// errCircuitOpen fails calls without sending them while Redis is taken to be
// down; classify wraps it in sessions.ErrUnavailable.
var errCircuitOpen = errors.New("redis: circuit open after consecutive failures")

// breaker is a circuit breaker around every command: after failures
// consecutive network failures or timeouts it opens, and calls fail at once
// with errCircuitOpen; after cooldown it lets one call through as a probe
// (half-open), whose success closes it and whose failure opens it again.
// Replies from the server, redis.Nil included, are successes: the server
// answered; of the refusals, LOADING, READONLY and the like count as
// failures, CLUSTERDOWN does not. It is safe for concurrent use.
type breaker struct {
	failures int
	cooldown time.Duration
	now      func() time.Time

	mu        sync.Mutex
	failed    int       // consecutive failures
	openUntil time.Time // zero while closed
	probing   bool      // a half-open probe is in flight
}

// allow reports whether a call may be sent, and whether it is the probe.
func (b *breaker) allow() (ok, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.openUntil.IsZero() {
		return true, false
	}
	if b.probing || b.now().Before(b.openUntil) {
		return false, false
	}
	b.probing = true
	return true, true
}

// closed reports whether the breaker lets every call through, for calls
// that must not be the probe.
func (b *breaker) closed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.openUntil.IsZero()
}

// record takes the outcome of a call that allow let through. CLUSTERDOWN
// does not count: the node answered, and answers again the moment its
// cluster has promoted a replica for the shard that failed; an open
// circuit would fail its calls for a cooldown longer.
func (b *breaker) record(ctx context.Context, err error, probe bool) {
	failed := isOutage(ctx, err) && !goredis.HasErrorPrefix(err, "CLUSTERDOWN")
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
	}
	if !failed {
		b.failed, b.openUntil = 0, time.Time{}
		return
	}
	b.failed++
	if probe || b.failed >= b.failures {
		b.openUntil = b.now().Add(b.cooldown)
	}
}

// isOutage tells a failure of Redis or of the network from an answer, a
// caller that gave up, and a closed client.
func isOutage(ctx context.Context, err error) bool {
	if err == nil || errors.Is(err, goredis.Nil) || errors.Is(err, goredis.ErrClosed) {
		return false
	}
	var reply goredis.Error
	if errors.As(err, &reply) {
		// LOADING, READONLY, ... mean the server cannot serve now.
		for _, prefix := range unavailableReplies {
			if goredis.HasErrorPrefix(err, prefix) {
				return true
			}
		}
		return false
	}
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return false
	}
	var nerr net.Error
	return errors.As(err, &nerr) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, goredis.ErrPoolTimeout)
}

// hook runs b around every command and pipeline of a client.
type breakerHook struct{ b *breaker }

func (h breakerHook) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (h breakerHook) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		var ok, probe bool
		if cmd.Name() == "cluster" {
			// The cluster client's topology queries are never the probe:
			// it asks the next node when one fails at once, but a probe
			// of a node that hangs would hold every reload of the slot
			// map for a timeout.
			ok = h.b.closed()
		} else {
			ok, probe = h.b.allow()
		}
		if !ok {
			cmd.SetErr(errCircuitOpen)
			return errCircuitOpen
		}
		err := next(ctx, cmd)
		h.b.record(ctx, err, probe)
		return err
	}
}

func (h breakerHook) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		ok, probe := h.b.allow()
		if !ok {
			for _, cmd := range cmds {
				cmd.SetErr(errCircuitOpen)
			}
			return errCircuitOpen
		}
		err := next(ctx, cmds)
		h.b.record(ctx, err, probe)
		return err
	}
}
