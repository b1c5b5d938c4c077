package redis

import (
	"bufio"
	"context"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// insyncRecheck is how long a primary's count of replicas in sync is
// trusted, once it was found short of the wait's target, before it is
// asked again.
const insyncRecheck = time.Second

// insync remembers the primaries that have fewer replicas in sync than
// writes wait for: one whose replica died, or a replica just promoted in a
// failover, whose old primary is gone. Such a primary cannot have a write
// confirmed by more replicas than it has, so writes to it wait for those it
// has (none: no wait) and are acknowledged with the durability the shard
// has, rather than refused until a replica is back. A primary is asked
// again at most every [insyncRecheck]. It is safe for concurrent use.
type insync struct {
	mu    sync.Mutex
	short map[string]insyncCount // by primary address
}

type insyncCount struct {
	replicas int
	checked  time.Time
}

// target is how many replicas a write to node waits for: want, or fewer
// while the node is known to have fewer in sync. stale reports that the
// count is due to be asked again.
func (c *insync) target(node string, want int, now time.Time) (n int, stale bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	got, ok := c.short[node]
	if !ok {
		return want, false
	}
	return min(want, got.replicas), now.Sub(got.checked) >= insyncRecheck
}

// record keeps a node's count of replicas in sync, and reports whether the
// node was not known to be short before.
func (c *insync) record(node string, replicas, want int, now time.Time) (newlyShort bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, known := c.short[node]
	if replicas >= want {
		delete(c.short, node)
		return false
	}
	if c.short == nil {
		c.short = map[string]insyncCount{}
	}
	c.short[node] = insyncCount{replicas: replicas, checked: now}
	return !known
}

// replicasInSync asks a primary how many of its replicas are connected and
// in sync (INFO replication: state=online).
func replicasInSync(ctx context.Context, node *goredis.Client) (int, error) {
	info, err := node.Info(ctx, "replication").Result()
	if err != nil {
		return 0, err
	}
	return countOnline(info), nil
}

// countOnline counts the replicas INFO replication lists as online, from
// lines such as slave0:ip=10.0.0.2,port=6379,state=online,offset=1,lag=0.
func countOnline(info string) int {
	n := 0
	sc := bufio.NewScanner(strings.NewReader(info))
	for sc.Scan() {
		name, fields, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok || !strings.HasPrefix(name, "slave") || name == "slave_read_only" {
			continue
		}
		for _, f := range strings.Split(fields, ",") {
			if f == "state=online" {
				n++
				break
			}
		}
	}
	return n
}

// waitTarget is how many replicas a write to node waits for; see [insync].
// A count that is due is asked again first.
func (s *Service) waitTarget(ctx context.Context, node *goredis.Client) int {
	addr := node.Options().Addr
	n, stale := s.insync.target(addr, s.wait.replicas, s.now())
	if !stale {
		return n
	}
	got, err := replicasInSync(ctx, node)
	if err != nil {
		return n
	}
	s.insync.record(addr, got, s.wait.replicas, s.now())
	return min(got, s.wait.replicas)
}

// shortOfReplicas reports whether a write whose WAIT was confirmed by acked
// replicas may be acknowledged all the same because node has no more in
// sync than that: the shard has lost replicas, and the write is as durable
// as the shard can make it.
func (s *Service) shortOfReplicas(ctx context.Context, node *goredis.Client, acked int64) bool {
	got, err := replicasInSync(ctx, node)
	if err != nil {
		return false
	}
	addr := node.Options().Addr
	if s.insync.record(addr, got, s.wait.replicas, s.now()) {
		s.log.WarnContext(ctx, "sessions: primary has fewer replicas in sync than writes wait for; acknowledging writes once those it has hold them",
			"node", addr, "replicas", got, "wait_replicas", s.wait.replicas)
	}
	return got < s.wait.replicas && acked >= int64(got)
}
