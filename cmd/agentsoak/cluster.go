package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// clusterControl kills and restarts the nodes of the private Redis Cluster
// the soak script started, each from its own configuration file (same
// port, directory, append-only file and nodes.conf, so a restarted node
// rejoins the cluster, as a replica when its replica took over).
type clusterControl struct {
	nodes []*redisControl
	// appKey is the key of the app's state, which every read of a session
	// fetches: the primary that holds it is the worst one to lose.
	appKey string
}

// newClusterControl reads the port and pidfile of each configuration file.
func newClusterControl(bin string, confs []string, appKey string) (*clusterControl, error) {
	c := &clusterControl{appKey: appKey}
	for _, conf := range confs {
		port, pidFile, err := readRedisConf(conf)
		if err != nil {
			return nil, err
		}
		c.nodes = append(c.nodes, &redisControl{bin: bin, conf: conf, pidFile: pidFile, addr: "127.0.0.1:" + port})
	}
	return c, nil
}

// readRedisConf returns the port and pidfile a redis.conf names.
func readRedisConf(conf string) (port, pidFile string, err error) {
	data, err := os.ReadFile(conf)
	if err != nil {
		return "", "", fmt.Errorf("cluster node configuration: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "port" {
			port = f[1]
		}
		if len(f) == 2 && f[0] == "pidfile" {
			pidFile = f[1]
		}
	}
	if port == "" || pidFile == "" {
		return "", "", fmt.Errorf("cluster node configuration %s names no port or no pidfile", conf)
	}
	return port, pidFile, nil
}

// clusterNode is one line of CLUSTER NODES.
type clusterNode struct {
	id, addr, master string
	primary, failed  bool
	connected        bool
	slots            []string
}

// parseClusterNodes reads the reply of CLUSTER NODES.
func parseClusterNodes(reply string) []clusterNode {
	var out []clusterNode
	for _, line := range strings.Split(reply, "\n") {
		f := strings.Fields(line)
		if len(f) < 8 {
			continue
		}
		addr, _, _ := strings.Cut(f[1], "@")
		flags := "," + f[2] + ","
		out = append(out, clusterNode{id: f[0], addr: addr, master: f[3],
			primary:   strings.Contains(flags, ",master,"),
			failed:    strings.Contains(flags, ",fail,") || strings.Contains(flags, ",fail?,"),
			connected: f[7] == "connected", slots: f[8:]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}

// healthy reports whether nodes is the whole cluster at rest: every node
// up and connected, and each primary with a replica.
func healthy(nodes []clusterNode, want int) error {
	if len(nodes) != want {
		return fmt.Errorf("%d nodes known, want %d", len(nodes), want)
	}
	replicas := map[string]int{}
	for _, n := range nodes {
		if n.failed || !n.connected {
			return fmt.Errorf("node %s failed or not connected", n.addr)
		}
		if !n.primary {
			replicas[n.master]++
		}
	}
	for _, n := range nodes {
		if n.primary && len(n.slots) > 0 && replicas[n.id] == 0 {
			return fmt.Errorf("primary %s has no replica", n.addr)
		}
	}
	return nil
}

// query runs f on a client of the first node that answers.
func (c *clusterControl) query(ctx context.Context, f func(*goredis.Client) error) error {
	var errs []error
	for _, n := range c.nodes {
		// A killed node is skipped before go-redis dials it (and logs
		// its failures).
		if !n.ping(ctx) {
			errs = append(errs, fmt.Errorf("node %s does not answer", n.addr))
			continue
		}
		client := goredis.NewClient(&goredis.Options{Addr: n.addr, DialTimeout: time.Second,
			ReadTimeout: 2 * time.Second, MaxRetries: -1, DisableIdentity: true})
		err := f(client)
		client.Close()
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	return fmt.Errorf("no cluster node answers: %w", errors.Join(errs...))
}

// topology returns CLUSTER NODES as a node sees it.
func (c *clusterControl) topology(ctx context.Context) ([]clusterNode, error) {
	var nodes []clusterNode
	err := c.query(ctx, func(client *goredis.Client) error {
		reply, err := client.ClusterNodes(ctx).Result()
		if err != nil {
			return err
		}
		nodes = parseClusterNodes(reply)
		return nil
	})
	return nodes, err
}

// waitHealthy waits up to d until every node answers and the cluster is
// at rest, so that a kill finds each primary with a replica to promote.
func (c *clusterControl) waitHealthy(ctx context.Context, d time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var last error
	for {
		last = c.checkHealthy(ctx)
		if last == nil {
			return nil
		}
		if !sleepUntil(ctx, time.Now().Add(200*time.Millisecond)) {
			return fmt.Errorf("the cluster is not at rest after %s: %w", d, last)
		}
	}
}

func (c *clusterControl) checkHealthy(ctx context.Context) error {
	for _, n := range c.nodes {
		if !n.ping(ctx) {
			return fmt.Errorf("node %s does not answer", n.addr)
		}
	}
	nodes, err := c.topology(ctx)
	if err != nil {
		return err
	}
	return healthy(nodes, len(c.nodes))
}

// victim picks the primary the i-th kill takes down: on even kills the
// one that holds the app's state (every session then loses its app
// state's shard), on odd ones another (only its users' sessions lose
// theirs). holdsApp reports which.
func (c *clusterControl) victim(ctx context.Context, i int) (node *redisControl, holdsApp bool, err error) {
	var slot int64
	if err := c.query(ctx, func(client *goredis.Client) error {
		var err error
		slot, err = client.ClusterKeySlot(ctx, c.appKey).Result()
		return err
	}); err != nil {
		return nil, false, err
	}
	nodes, err := c.topology(ctx)
	if err != nil {
		return nil, false, err
	}
	var app string
	var others []string
	for _, n := range nodes {
		switch {
		case !n.primary || len(n.slots) == 0:
		case holdsSlot(n.slots, slot):
			app = n.addr
		default:
			others = append(others, n.addr)
		}
	}
	addr := app
	if i%2 == 1 && len(others) > 0 {
		addr = others[(i/2)%len(others)]
	}
	for _, n := range c.nodes {
		if n.addr == addr {
			return n, addr == app, nil
		}
	}
	return nil, false, fmt.Errorf("no started node is the primary %q", addr)
}

// holdsSlot reports whether slot is in the ranges of a CLUSTER NODES line
// ("0-5460", "5461", "[…->-…]" for migrations, which never hold it here).
func holdsSlot(ranges []string, slot int64) bool {
	for _, r := range ranges {
		var lo, hi int64
		if n, _ := fmt.Sscanf(r, "%d-%d", &lo, &hi); n == 2 {
			if lo <= slot && slot <= hi {
				return true
			}
		} else if n == 1 && lo == slot {
			return true
		}
	}
	return false
}

// restore starts every node that does not answer.
func (c *clusterControl) restore(ctx context.Context) (started []string, err error) {
	var errs []error
	for _, n := range c.nodes {
		if n.ping(ctx) {
			continue
		}
		if err := n.start(ctx); err != nil {
			errs = append(errs, err)
			continue
		}
		started = append(started, n.addr)
	}
	return started, errors.Join(errs...)
}
