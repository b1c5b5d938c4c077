package redis

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// replicaRecheck is how long a primary's count of replicas is trusted,
// once it was found short of the wait's target, before it is asked again.
const replicaRecheck = time.Second

// replicaCounts remembers the cluster primaries that have no replica at
// all: a replica just promoted in a failover, whose old primary is gone, or
// a primary whose only replica failed. No failover can lose a write to such
// a primary (there is no replica to promote over it), so writes to it are
// acknowledged without waiting, rather than refused until a replica is
// back; a write is then on one node only, as on a lone server. A replica
// that is listed but cut off or still syncing counts: it could be promoted
// without the write, so writes wait for it as before. A primary is asked
// again at most every [replicaRecheck]. It is safe for concurrent use.
type replicaCounts struct {
	mu   sync.Mutex
	none map[string]time.Time // primary address → when it was found with no replica
}

// target is how many replicas a write to node waits for: want, or none
// while the node is known to have none. stale reports that the count is
// due to be asked again.
func (c *replicaCounts) target(node string, want int, now time.Time) (n int, stale bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	checked, ok := c.none[node]
	if !ok {
		return want, false
	}
	return 0, now.Sub(checked) >= replicaRecheck
}

// record keeps whether a node has replicas, and reports whether it was not
// known to have none before.
func (c *replicaCounts) record(node string, replicas int, now time.Time) (newlyNone bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, known := c.none[node]
	if replicas > 0 {
		delete(c.none, node)
		return false
	}
	if c.none == nil {
		c.none = map[string]time.Time{}
	}
	c.none[node] = now
	return !known
}

// replicasOf asks a cluster node how many replicas the cluster lists for
// it, failed ones left out (CLUSTER NODES). On a server that is not in a
// cluster it fails, and writes wait as configured.
func replicasOf(ctx context.Context, node *goredis.Client) (int, error) {
	nodes, err := node.ClusterNodes(ctx).Result()
	if err != nil {
		return 0, err
	}
	return countReplicas(nodes), nil
}

// countReplicas counts, in CLUSTER NODES output, the replicas of the node
// flagged myself that are not flagged fail. A line is: id, address, flags,
// primary id (or -), then pings, epoch, link state and slots.
func countReplicas(nodes string) int {
	var lines [][]string
	me := ""
	for _, l := range strings.Split(nodes, "\n") {
		f := strings.Fields(l)
		if len(f) < 4 {
			continue
		}
		lines = append(lines, f)
		if slices.Contains(strings.Split(f[2], ","), "myself") {
			me = f[0]
		}
	}
	n := 0
	for _, f := range lines {
		flags := strings.Split(f[2], ",")
		if me != "" && f[3] == me && slices.Contains(flags, "slave") && !slices.Contains(flags, "fail") {
			n++
		}
	}
	return n
}

// waitTarget is how many replicas a write to node waits for; see
// [replicaCounts]. A count that is due is asked again first.
func (s *Service) waitTarget(ctx context.Context, node *goredis.Client) int {
	addr := node.Options().Addr
	n, stale := s.replicas.target(addr, s.wait.replicas, s.now())
	if !stale {
		return n
	}
	got, err := replicasOf(ctx, node)
	if err != nil {
		return n
	}
	s.replicas.record(addr, got, s.now())
	if got > 0 {
		return s.wait.replicas
	}
	return 0
}

// withoutReplicas reports whether a write whose WAIT fell short may be
// acknowledged all the same because node has no replica at all; see
// [replicaCounts].
func (s *Service) withoutReplicas(ctx context.Context, node *goredis.Client) bool {
	if !s.keys.cluster {
		return false
	}
	got, err := replicasOf(ctx, node)
	if err != nil {
		return false
	}
	addr := node.Options().Addr
	if s.replicas.record(addr, got, s.now()) {
		s.log.WarnContext(ctx, "sessions: cluster primary has no replica; acknowledging its writes without waiting until one is back",
			"node", addr, "wait_replicas", s.wait.replicas)
	}
	return got == 0
}
