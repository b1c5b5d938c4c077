package redis

import (
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// DefaultWaitTimeout bounds the wait for replicas when neither
// [Options.WaitTimeout] nor the URL's wait_timeout sets it.
const DefaultWaitTimeout = 250 * time.Millisecond

// Bounds of the URL's wait parameters.
const (
	maxWaitReplicas = 16
	maxWaitTimeout  = time.Minute
)

// waitPolicy is how writes wait for replicas: not at all when replicas is 0.
type waitPolicy struct {
	replicas int
	timeout  time.Duration
}

// resolveWait applies the defaults of [Options.WaitReplicas] and
// [Options.WaitTimeout] for a client whose read timeout is readTimeout.
func resolveWait(opts Options, cluster bool, readTimeout time.Duration) waitPolicy {
	w := waitPolicy{replicas: opts.WaitReplicas, timeout: opts.WaitTimeout}
	switch {
	case w.replicas < 0:
		return waitPolicy{}
	case w.replicas == 0 && cluster:
		w.replicas = 1
	case w.replicas == 0:
		return waitPolicy{}
	}
	if w.timeout <= 0 {
		w.timeout = DefaultWaitTimeout
	}
	// A pipeline's replies are read within the read timeout: WAIT must
	// answer well before it, with the time its replicas needed.
	if readTimeout > 0 && w.timeout > readTimeout/2 {
		w.timeout = readTimeout / 2
	}
	w.timeout = max(w.timeout, time.Millisecond)
	return w
}

// waitParams are the URL's query parameters that [takeWait] reads; go-redis
// does not know them.
var waitParams = []string{"wait_replicas", "wait_timeout"}

// takeWait sets the fields of opts that the URL's wait parameters, params,
// stand for unless opts sets them already. wait_replicas=0 turns the wait
// off; wait_timeout is a Go duration such as 250ms.
func takeWait(params url.Values, opts *Options) error {
	if v := params.Get("wait_replicas"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > maxWaitReplicas {
			return fmt.Errorf("wait_replicas %q: want a number from 0 to %d", v, maxWaitReplicas)
		}
		if opts.WaitReplicas == 0 {
			opts.WaitReplicas = n
			if n == 0 {
				opts.WaitReplicas = -1
			}
		}
	}
	if v := params.Get("wait_timeout"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Millisecond || d > maxWaitTimeout {
			return fmt.Errorf("wait_timeout %q: want a duration from 1ms to %v", v, maxWaitTimeout)
		}
		if opts.WaitTimeout == 0 {
			opts.WaitTimeout = d
		}
	}
	return nil
}
