package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// NewCluster connects to the Redis Cluster at url:
// redis+cluster://[user:password@]host:port,host:port,... or
// rediss+cluster://... for TLS. The hosts are seeds: any reachable one tells
// the client the others. go-redis's cluster query parameters (dial_timeout,
// pool_size, max_redirects, ...) apply, as do wait_replicas and
// wait_timeout (see [Options.WaitReplicas]; by default every create and
// append waits for one replica). Non-zero fields of opts override the URL;
// the key prefix must not hold braces. A redis:// or rediss:// URL names
// one seed, with database 0. It does not contact the cluster; see
// [Service.Ping].
func NewCluster(url string, opts Options) (*Service, error) {
	// A cluster's configuration endpoint is often handed out as a single
	// node's URL.
	if scheme, rest, ok := strings.Cut(url, "://"); ok && (scheme == "redis" || scheme == "rediss") {
		url = scheme + "+cluster://" + rest
	}
	_, cluster, err := parseURL(url, &opts)
	if err != nil {
		return nil, err
	}
	return newCluster(cluster, opts)
}

// newCluster connects to the Redis Cluster o describes, with the connection
// settings of opts over o's.
func newCluster(o *goredis.ClusterOptions, opts Options) (*Service, error) {
	if strings.ContainsAny(opts.KeyPrefix, "{}") {
		// A brace would move the hash tag off the user's name.
		return nil, fmt.Errorf("sessions.redis: key prefix %q holds a brace", opts.KeyPrefix)
	}
	opts.overrideConn(&o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.PoolSize, &o.MaxRetries)
	o.DisableIdentity = true
	o.ContextTimeoutEnabled = true
	return NewFromClusterClient(goredis.NewClusterClient(o), opts), nil
}

// NewFromClusterClient builds a Service on a cluster client the caller
// configured, before its first command. The Service owns the client from
// then on and closes it in Close. Of opts, only KeyPrefix, TTL, Limits, the
// breaker's settings, the wait for replicas, Logger and TracerProvider
// apply; each node gets a circuit breaker of its own, so that a primary
// that is down fails its calls quickly while the others serve theirs, and
// a node that fails makes the client learn the slot map anew, so that it
// finds the replica that took over (see [clusterTopology]).
func NewFromClusterClient(client *goredis.ClusterClient, opts Options) *Service {
	topo := newClusterTopology(client)
	client.OnNewNode(func(node *goredis.Client) {
		topo.met(node)
		// Outside the breaker, to see the calls it refuses.
		node.AddHook(reloadHook{topo.refresh})
		if b := newBreaker(opts); b != nil {
			node.AddHook(breakerHook{b})
		}
	})
	return newService(client, topo, opts, true, client.Options().ReadTimeout)
}

// errNotReplicated fails a write that its primary applied but too few
// replicas confirmed in time; classify makes it unavailable.
var errNotReplicated = errors.New("redis: write not confirmed by enough replicas in time")

// Attempts of a write that waits for replicas, when its primary moved or
// failed: the first, then retries after 50, 100 and 200 ms.
const (
	primaryAttempts = 4
	primaryBackoff  = 50 * time.Millisecond
)

// writeScripts are the scripts sent by [Service.onPrimary]; a primary that
// lacks one gets them all.
var writeScripts = []*goredis.Script{createScript, appendScript}

// onPrimary sends the commands build adds to a pipeline to the primary that
// holds key and, when writes wait for replicas, WAIT after them on the same
// connection: one round trip. build may run more than once, after a
// redirection, a failed primary or a script cache that lacked a script
// (retried writes are recognised by the scripts); the commands of its last
// run carry the replies. The error is the first command's error, or one
// wrapping errNotReplicated.
func (s *Service) onPrimary(ctx context.Context, key string, build func(goredis.Pipeliner)) error {
	backoff := primaryBackoff
	for attempt := 1; ; attempt++ {
		err := s.onPrimaryOnce(ctx, key, build)
		if err == nil || attempt == primaryAttempts || !moved(ctx, err) {
			return err
		}
		s.topo.refresh(ctx)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(backoff):
		}
		backoff *= 2
	}
}

func (s *Service) onPrimaryOnce(ctx context.Context, key string, build func(goredis.Pipeliner)) error {
	node, err := s.topo.primary(ctx, key)
	if err != nil {
		return err
	}
	want := s.waitTarget(ctx, node)
	for loaded := false; ; loaded = true {
		pipe := node.Pipeline()
		build(pipe)
		var wait *goredis.Cmd
		if want > 0 {
			wait = pipe.Do(ctx, "wait", want, s.wait.timeout.Milliseconds())
		}
		cmds, err := pipe.Exec(ctx)
		if !loaded && lacksScript(cmds) {
			for _, script := range writeScripts {
				if err := script.Load(ctx, node).Err(); err != nil {
					return err
				}
			}
			continue
		}
		for _, cmd := range cmds {
			if cmd != goredis.Cmder(wait) && cmd.Err() != nil {
				return cmd.Err()
			}
		}
		if err != nil {
			return err
		}
		if wait == nil {
			return nil
		}
		n, err := wait.Int64()
		if err == nil && n < int64(want) && !s.withoutReplicas(ctx, node) {
			err = fmt.Errorf("%w: %d of %d within %v", errNotReplicated, n, want, s.wait.timeout)
		}
		return err
	}
}

func lacksScript(cmds []goredis.Cmder) bool {
	for _, cmd := range cmds {
		if goredis.HasErrorPrefix(cmd.Err(), "NOSCRIPT") {
			return true
		}
	}
	return false
}

// moved reports whether err may pass once the client learnt where the key
// lives now: a redirection, a primary that is down or demoted, a cluster
// between two states.
func moved(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	return unreachable(ctx, err) || goredis.HasErrorPrefix(err, "MOVED") || goredis.HasErrorPrefix(err, "ASK")
}

// runWrite runs a writing script: on the primary of keys[0] followed by WAIT
// when writes wait for replicas, else through the client, which follows
// redirections and loads the script where it is missing. A write that too
// few replicas confirmed fails wrapping errNotReplicated, with the script's
// reply: the primary applied it.
func (s *Service) runWrite(ctx context.Context, script *goredis.Script, keys []string, args ...any) ([]any, error) {
	if s.wait.replicas == 0 {
		return script.Run(ctx, s.client, keys, args...).Slice()
	}
	var cmd *goredis.Cmd
	err := s.onPrimary(ctx, keys[0], func(p goredis.Pipeliner) {
		cmd = script.EvalSha(ctx, p, keys, args...)
	})
	if errors.Is(err, errNotReplicated) {
		// The primary ran the script: its reply says what it did.
		reply, _ := cmd.Slice()
		return reply, err
	}
	if err != nil {
		return nil, err
	}
	return cmd.Slice()
}
