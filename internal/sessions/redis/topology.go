package redis

import (
	"context"
	"errors"
	"sync"

	goredis "github.com/redis/go-redis/v9"
)

// topology finds the nodes that hold a key: one server, or the shards of a
// Redis Cluster.
type topology interface {
	// primary returns the node that takes writes of key.
	primary(ctx context.Context, key string) (*goredis.Client, error)
	// replica returns a node that holds a copy of key, to read from while
	// its primary does not answer; errNoReplica when there is none.
	replica(ctx context.Context, key string) (*goredis.Client, error)
	// refresh makes the next lookups learn the topology anew, after a
	// redirection or a failed primary.
	refresh(ctx context.Context)
	// ping checks that the store answers, for readiness.
	ping(ctx context.Context) error
}

// errNoReplica fails a lookup of a replica on a single server.
var errNoReplica = errors.New("redis: no replica to read from")

type singlePrimary struct{ c *goredis.Client }

func (p singlePrimary) primary(context.Context, string) (*goredis.Client, error) { return p.c, nil }
func (p singlePrimary) replica(context.Context, string) (*goredis.Client, error) {
	return nil, errNoReplica
}
func (p singlePrimary) refresh(context.Context)        {}
func (p singlePrimary) ping(ctx context.Context) error { return p.c.Ping(ctx).Err() }

// clusterTopology is a Redis Cluster's, as its client knows it, with the
// client of every node the client has met. It is safe for concurrent use.
//
// go-redis learns the slot map anew only on a redirection (MOVED, ASK), a
// READONLY reply, or once a minute (ClusterStateReloadInterval). A primary
// that dies sends no redirection: without more, the client would keep
// sending its slots' commands to the dead address for up to a minute after
// its replica took over. So every node's client asks for a reload whenever
// the node fails to answer (see [reloadHook]); reloads are coalesced, at
// most one every 200 ms, and take milliseconds once Redis has promoted the
// replica.
type clusterTopology struct {
	c *goredis.ClusterClient

	mu    sync.Mutex
	nodes map[string]*goredis.Client // by address
}

func newClusterTopology(c *goredis.ClusterClient) *clusterTopology {
	return &clusterTopology{c: c, nodes: map[string]*goredis.Client{}}
}

// met records a node's client, created by the cluster client.
func (p *clusterTopology) met(node *goredis.Client) {
	p.mu.Lock()
	p.nodes[node.Options().Addr] = node
	p.mu.Unlock()
}

func (p *clusterTopology) primary(ctx context.Context, key string) (*goredis.Client, error) {
	return p.c.MasterForKey(ctx, key)
}

func (p *clusterTopology) replica(ctx context.Context, key string) (*goredis.Client, error) {
	return p.c.SlaveForKey(ctx, key)
}

func (p *clusterTopology) refresh(ctx context.Context) { p.c.ReloadState(ctx) }

// ping pings every node concurrently and succeeds when any answers: a
// shard that fails over, or a node that is gone, leaves the others to
// serve their sessions, so readiness holds while any node answers. It
// fails with the first error when none does. It waits for every node
// (those behind an open circuit fail at once), within ctx: the pings are
// not cancelled, which would close their connections on every check.
func (p *clusterTopology) ping(ctx context.Context) error {
	p.mu.Lock()
	nodes := make([]*goredis.Client, 0, len(p.nodes))
	for _, n := range p.nodes {
		nodes = append(nodes, n)
	}
	p.mu.Unlock()
	if len(nodes) == 0 {
		// No node met yet: the cluster client finds one from its seeds.
		return p.c.Ping(ctx).Err()
	}
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() {
			errs[i] = n.Ping(ctx).Err()
			if errors.Is(errs[i], goredis.ErrClosed) {
				// The cluster client dropped the node from its map.
				p.forget(n)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err == nil {
			return nil
		}
	}
	return errs[0]
}

// forget drops a node's client that was closed.
func (p *clusterTopology) forget(node *goredis.Client) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.nodes[node.Options().Addr] == node {
		delete(p.nodes, node.Options().Addr)
	}
}

// reloadHook asks for the cluster's slot map anew when its node does not
// answer: a network failure, a timeout, an open circuit, or a refusal such
// as CLUSTERDOWN. It leaves out the cluster client's own CLUSTER SLOTS, so
// that a reload that tries a dead node does not ask for another.
type reloadHook struct{ reload func(context.Context) }

func (h reloadHook) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (h reloadHook) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		err := next(ctx, cmd)
		if cmd.Name() != "cluster" && unreachable(ctx, err) {
			h.reload(ctx)
		}
		return err
	}
}

func (h reloadHook) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		err := next(ctx, cmds)
		if unreachable(ctx, err) {
			h.reload(ctx)
		}
		return err
	}
}

// unreachable reports whether err says that a node cannot serve now: it is
// down, hung, behind an open circuit, or refuses (LOADING, READONLY,
// CLUSTERDOWN, ...).
func unreachable(ctx context.Context, err error) bool {
	return ctx.Err() == nil && (errors.Is(err, errCircuitOpen) || isOutage(ctx, err))
}
