package redis

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// clusterNode is a redis-server of a private cluster, owned by one test.
type clusterNode struct {
	t    *testing.T
	port int
	dir  string
	cmd  *exec.Cmd
}

func (n *clusterNode) addr() string { return fmt.Sprintf("127.0.0.1:%d", n.port) }

// start runs the node on its port and directory, keeping the cluster
// configuration it wrote before, and waits until it answers.
func (n *clusterNode) start() {
	n.t.Helper()
	n.cmd = exec.Command("redis-server", "--port", strconv.Itoa(n.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--cluster-enabled", "yes",
		"--cluster-config-file", filepath.Join(n.dir, "nodes.conf"), "--cluster-node-timeout", "1000",
		"--repl-diskless-sync-delay", "0", "--repl-ping-replica-period", "1", "--cluster-require-full-coverage", "no",
		"--dir", n.dir, "--logfile", filepath.Join(n.dir, "redis.log"))
	if err := n.cmd.Start(); err != nil {
		n.t.Fatal(err)
	}
	c := goredis.NewClient(&goredis.Options{Addr: n.addr(), DisableIdentity: true, MaxRetries: -1})
	defer c.Close()
	for i := 0; c.Ping(context.Background()).Err() != nil; i++ {
		if i == 100 {
			log, _ := os.ReadFile(filepath.Join(n.dir, "redis.log"))
			n.t.Fatalf("redis-server on %s did not answer; log:\n%s", n.addr(), log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// freeClusterPort returns a free loopback port whose cluster bus port, 10000
// higher, is free too; both must stay below 65536.
func freeClusterPort(t *testing.T) int {
	t.Helper()
	for range 100 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		if port > 55535 {
			l.Close()
			continue
		}
		bus, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port+10000))
		l.Close()
		if err != nil {
			continue
		}
		bus.Close()
		return port
	}
	t.Fatal("no free port pair for a cluster node")
	return 0
}

// kill ends the node at once, as a crash would.
func (n *clusterNode) kill() {
	_ = n.cmd.Process.Kill()
	_ = n.cmd.Wait()
}

// startCluster starts three primaries and three replicas with a node
// timeout of one second and independent shards (a shard that fails over
// leaves the others serving), and waits until every node sees them all.
func startCluster(t *testing.T) []*clusterNode {
	t.Helper()
	for _, bin := range []string{"redis-server", "redis-cli"} {
		if _, err := exec.LookPath(bin); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not on PATH: %v", bin, err)
			}
			t.Skipf("%s is not on PATH: %v", bin, err)
		}
	}
	nodes := make([]*clusterNode, 6)
	addrs := make([]string, len(nodes))
	for i := range nodes {
		nodes[i] = &clusterNode{t: t, port: freeClusterPort(t), dir: t.TempDir()}
		nodes[i].start()
		t.Cleanup(nodes[i].kill)
		addrs[i] = nodes[i].addr()
	}
	out, err := exec.Command("redis-cli", append([]string{"--cluster", "create"},
		append(addrs, "--cluster-replicas", "1", "--cluster-yes")...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	waitClusterReady(t, nodes, 20*time.Second)
	return nodes
}

// waitClusterReady waits until every running node reports cluster_state:ok,
// three replicas, its replication link up, and a replica for every slot
// range in CLUSTER SLOTS (a node leaves out replicas whose replication
// offset it has not yet learnt, and clients then know of none to read from).
func waitClusterReady(t *testing.T, nodes []*clusterNode, within time.Duration) {
	t.Helper()
	ctx := t.Context()
	deadline := time.Now().Add(within)
	for {
		ready := true
		for _, n := range nodes {
			c := goredis.NewClient(&goredis.Options{Addr: n.addr(), DisableIdentity: true, MaxRetries: -1})
			info, err1 := c.ClusterInfo(ctx).Result()
			topo, err2 := c.ClusterNodes(ctx).Result()
			repl, err3 := c.Info(ctx, "replication").Result()
			slots, err4 := c.ClusterSlots(ctx).Result() //nolint:staticcheck // SA1019: the distribution's redis-server may predate 7.0 and CLUSTER SHARDS.
			c.Close()
			for _, s := range slots {
				if len(s.Nodes) < 2 {
					err4 = fmt.Errorf("slots %d-%d without a replica", s.Start, s.End)
				}
			}
			if err1 != nil || err2 != nil || err3 != nil || err4 != nil || !strings.Contains(info, "cluster_state:ok") ||
				strings.Count(topo, "slave") != 3 || strings.Contains(topo, "fail") ||
				!(strings.Contains(repl, "connected_slaves:1") || strings.Contains(repl, "master_link_status:up")) {
				ready = false
				break
			}
		}
		if ready {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster is not ready after %v", within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// loadedSession is one session under load and the events whose appends
// were acknowledged.
type loadedSession struct {
	handle *v1.Session
	acked  []string
	// okAfter counts appends acknowledged after the cluster recovered.
	okAfter atomic.Int64
}

// TestClusterFailoverLosesNoAcknowledgedEvent appends to sessions spread
// over every primary, kills one primary's process mid-load, waits for its
// replica to take over, restarts the dead node (it rejoins as a replica),
// and checks that every append that was acknowledged is stored and that
// every session takes appends again, through the same Service.
func TestClusterFailoverLosesNoAcknowledgedEvent(t *testing.T) {
	testClusterURL(t) // the cluster runs; this test starts one of its own to kill
	nodes := startCluster(t)
	seeds := make([]string, len(nodes))
	for i, n := range nodes {
		seeds[i] = n.addr()
	}
	svc, err := New("redis+cluster://"+strings.Join(seeds, ","), Options{
		KeyPrefix: "failover", MaxRetries: 1,
		DialTimeout: 500 * time.Millisecond, ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	cc := svc.client.(*goredis.ClusterClient)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	// Sessions on every primary.
	const users = 24
	loaded := make([]*loadedSession, users)
	byPrimary := map[string][]int{}
	for i := range loaded {
		user := fmt.Sprintf("user-%d", i)
		sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: user})
		if err != nil {
			t.Fatal(err)
		}
		loaded[i] = &loadedSession{handle: sess}
		node, err := cc.MasterForKey(ctx, svc.keys.index("app", user))
		if err != nil {
			t.Fatal(err)
		}
		byPrimary[node.Options().Addr] = append(byPrimary[node.Options().Addr], i)
	}
	if len(byPrimary) != 3 {
		t.Fatalf("sessions on %d primaries, want 3", len(byPrimary))
	}

	var recovered atomic.Bool
	var acked, failed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i, ls := range loaded {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				ev := &v1.Event{Id: fmt.Sprintf("ev-%d-%d", i, k), InvocationId: "e-load", Author: "user",
					Content: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "load"}}}}
				after := recovered.Load()
				if err := svc.AppendEvent(ctx, ls.handle, ev); err == nil {
					ls.acked = append(ls.acked, ev.Id)
					ls.handle.Events = nil
					acked.Add(1)
					if after {
						ls.okAfter.Add(1)
					}
					continue
				}
				failed.Add(1)
				// The append may have been applied: read the session
				// again for a handle of its current version.
				for {
					fresh, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: ls.handle.UserId,
						SessionID: ls.handle.Id, NumRecentEvents: 1})
					if err == nil {
						fresh.Events = nil
						ls.handle = fresh
						break
					}
					select {
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
					}
				}
			}
		}()
	}

	time.Sleep(time.Second)
	var victim *clusterNode
	for _, n := range nodes {
		if len(byPrimary[n.addr()]) > 0 {
			victim = n
			break
		}
	}
	survivors := make([]*clusterNode, 0, len(nodes)-1)
	for _, n := range nodes {
		if n != victim {
			survivors = append(survivors, n)
		}
	}
	replica := replicaOf(t, survivors, victim)
	// Replication is asynchronous, and on loopback a replica trails its
	// primary by microseconds: cut the replica off, as a slow link or a busy
	// replica would, so that writes the primary applied are missing from
	// the replica when it takes over. Only writes acknowledged after WAIT
	// are safe from that. The primary refuses new connections, so the
	// replica cannot reconnect, while the store's open ones keep working.
	vc := goredis.NewClient(&goredis.Options{Addr: victim.addr(), DisableIdentity: true, MaxRetries: -1})
	if err := vc.ConfigSet(ctx, "maxclients", "1").Err(); err != nil {
		t.Fatal(err)
	}
	err = vc.ClientKillByFilter(ctx, "TYPE", "replica").Err()
	vc.Close()
	if err != nil {
		t.Fatal(err)
	}
	cut := acked.Load()
	time.Sleep(500 * time.Millisecond)
	before := acked.Load()
	t.Logf("%d appends acknowledged while the replica was cut off", before-cut)
	victim.kill()
	killed := time.Now()
	t.Logf("killed primary %s after %d acknowledged appends", victim.addr(), before)

	// The replica takes over; the others keep serving meanwhile.
	waitFailover(t, survivors, replica, 30*time.Second)
	t.Logf("replica promoted %v after the kill", time.Since(killed).Round(time.Millisecond))
	time.Sleep(500 * time.Millisecond)

	// Back with no data, the dead node rejoins as the new primary's
	// replica, and writes to its slots are acknowledged again.
	victim.start()
	waitClusterReady(t, nodes, 30*time.Second)
	recovered.Store(true)
	t.Logf("cluster whole again %v after the kill", time.Since(killed).Round(time.Millisecond))
	deadline := time.Now().Add(20 * time.Second)
	for {
		time.Sleep(200 * time.Millisecond)
		done := true
		for _, ls := range loaded {
			if ls.okAfter.Load() == 0 {
				done = false
			}
		}
		if done || time.Now().After(deadline) {
			break
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d appends acknowledged, %d failed", acked.Load(), failed.Load())

	for i, ls := range loaded {
		if ls.okAfter.Load() == 0 {
			t.Errorf("session %d: no append acknowledged after the cluster recovered", i)
		}
		stored, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: ls.handle.UserId, SessionID: ls.handle.Id})
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		ids := map[string]bool{}
		for _, ev := range stored.Events {
			ids[ev.Id] = true
		}
		var lost []string
		for _, id := range ls.acked {
			if !ids[id] {
				lost = append(lost, id)
			}
		}
		if len(lost) > 0 {
			t.Errorf("session %d (on %v): %d of %d acknowledged events are lost, the first %s",
				i, primaryOf(byPrimary, i), len(lost), len(ls.acked), lost[0])
		}
	}
}

// replicaOf returns the replica of primary among nodes.
func replicaOf(t *testing.T, nodes []*clusterNode, primary *clusterNode) *clusterNode {
	t.Helper()
	for _, n := range nodes {
		c := goredis.NewClient(&goredis.Options{Addr: n.addr(), DisableIdentity: true, MaxRetries: -1})
		repl, err := c.Info(t.Context(), "replication").Result()
		c.Close()
		if err == nil && strings.Contains(repl, fmt.Sprintf("master_port:%d\r\n", primary.port)) {
			return n
		}
	}
	t.Fatalf("no replica of %s", primary.addr())
	return nil
}

// waitFailover waits until replica is a primary and every survivor reports
// cluster_state:ok.
func waitFailover(t *testing.T, survivors []*clusterNode, replica *clusterNode, within time.Duration) {
	t.Helper()
	ctx := t.Context()
	deadline := time.Now().Add(within)
	for {
		ok := true
		for _, n := range survivors {
			c := goredis.NewClient(&goredis.Options{Addr: n.addr(), DisableIdentity: true, MaxRetries: -1})
			info, err1 := c.ClusterInfo(ctx).Result()
			repl, err2 := c.Info(ctx, "replication").Result()
			c.Close()
			if err1 != nil || err2 != nil || !strings.Contains(info, "cluster_state:ok") ||
				(n == replica && !strings.Contains(repl, "role:master")) {
				ok = false
				break
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not take over within %v", replica.addr(), within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func primaryOf(byPrimary map[string][]int, i int) string {
	for addr, idx := range byPrimary {
		for _, j := range idx {
			if j == i {
				return addr
			}
		}
	}
	return "?"
}
