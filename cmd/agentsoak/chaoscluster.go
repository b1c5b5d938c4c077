package main

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// killPrimary waits until the cluster is at rest, kills a primary with
// SIGKILL (see [clusterControl.victim]), notes when Redis promotes its
// replica, and restarts the node --primary-down after the kill, even when
// ctx ends meanwhile; the node rejoins as a replica.
func (c *chaos) killPrimary(ctx context.Context, i int) {
	if err := c.cluster.waitHealthy(ctx, time.Minute); err != nil {
		c.note(chaosPrimaryKill, "skipped", err)
		return
	}
	node, holdsApp, err := c.cluster.victim(ctx, i)
	if err != nil {
		c.note(chaosPrimaryKill, "no victim", err)
		return
	}
	killed := time.Now()
	pid, err := node.kill()
	detail := fmt.Sprintf("%s, pid %d", node.addr, pid)
	if holdsApp {
		detail += ", holding the app's state"
	}
	c.noteAt(killed, chaosPrimaryKill, detail, err)
	if err != nil {
		return
	}
	back := killed.Add(c.o.primaryDown)
	if addr, ok := c.awaitPromotion(ctx, node.addr, back); ok {
		c.note(chaosPromoted, fmt.Sprintf("%s took over %s after %s", addr, node.addr, round(time.Since(killed))), nil)
	} else {
		c.note(chaosPromoted, "no promotion seen before the restart", fmt.Errorf("no replica of %s promoted within %s", node.addr, c.o.primaryDown))
	}
	sleepUntil(ctx, back)
	err = node.start(context.WithoutCancel(ctx))
	c.note(chaosNodeStart, node.addr, err)
}

// awaitPromotion polls the topology until a node other than the killed one
// is a primary whose replica the killed node was, or until the deadline.
func (c *chaos) awaitPromotion(ctx context.Context, killed string, deadline time.Time) (string, bool) {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	var slots []string
	for ctx.Err() == nil {
		nodes, err := c.cluster.topology(ctx)
		if err == nil {
			for _, n := range nodes {
				if n.addr == killed && len(n.slots) > 0 && slots == nil {
					slots = n.slots
				}
			}
			for _, n := range nodes {
				if n.addr != killed && n.primary && !n.failed && slots != nil && slices.Equal(n.slots, slots) {
					return n.addr, true
				}
			}
		}
		sleepUntil(ctx, time.Now().Add(100*time.Millisecond))
	}
	return "", false
}

// killReplica kills the last agentsvc replica with SIGKILL while the load
// has invocations running on it (waiting up to 5 s for some), and
// restarts it --replica-down later, even when ctx ends meanwhile.
func (c *chaos) killReplica(ctx context.Context, _ int) {
	for wait := time.Now().Add(5 * time.Second); c.replica.inFlight.Load() == 0 && time.Now().Before(wait); {
		if !sleepUntil(ctx, time.Now().Add(10*time.Millisecond)) {
			return
		}
	}
	running, killed := c.replica.inFlight.Load(), time.Now()
	pid, err := c.replica.kill()
	c.noteAt(killed, chaosReplicaKill, fmt.Sprintf("%s, pid %d, %d invocations running", c.replica.addr, pid, running), err)
	if err != nil {
		return
	}
	sleepUntil(ctx, time.Now().Add(c.o.replicaDown))
	err = c.replica.restart(context.WithoutCancel(ctx))
	c.note(chaosReplicaStart, c.replica.addr, err)
}
