package redis

import (
	"testing"
	"time"
)

func TestCountReplicas(t *testing.T) {
	t.Parallel()
	const (
		me    = "aaa 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460\n"
		other = "bbb 127.0.0.1:7001@17001 master - 0 1 2 connected 5461-10922\n"
	)
	for _, tc := range []struct {
		name, nodes string
		want        int
	}{
		{"no replica", me + other, 0},
		{"one replica", me + other + "ccc 127.0.0.1:7003@17003 slave aaa 0 1 1 connected\n", 1},
		{"a cut-off replica counts", me + "ccc 127.0.0.1:7003@17003 slave aaa 0 1 1 disconnected\n", 1},
		{"a suspected replica counts", me + "ccc 127.0.0.1:7003@17003 slave,fail? aaa 0 1 1 disconnected\n", 1},
		{"a failed replica does not", me + "ccc 127.0.0.1:7003@17003 slave,fail aaa 0 1 1 disconnected\n", 0},
		{"another primary's replica does not", me + other + "ddd 127.0.0.1:7004@17004 slave bbb 0 1 2 connected\n", 0},
		{"the dead old primary does not", me + "eee 127.0.0.1:7005@17005 master,fail - 0 1 1 disconnected\n", 0},
		{"no myself line", other + "ddd 127.0.0.1:7004@17004 slave bbb 0 1 2 connected\n", 0},
	} {
		if got := countReplicas(tc.nodes); got != tc.want {
			t.Errorf("%s: countReplicas = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestReplicaCountsTarget(t *testing.T) {
	t.Parallel()
	var c replicaCounts
	now := time.Unix(1000, 0)
	if n, stale := c.target("a:1", 1, now); n != 1 || stale {
		t.Fatalf("unknown node: target = %d, %v; want 1, false", n, stale)
	}
	if !c.record("a:1", 0, now) {
		t.Error("first record of a node without replicas: want newly none")
	}
	if c.record("a:1", 0, now) {
		t.Error("second record: want not newly none")
	}
	if n, stale := c.target("a:1", 1, now.Add(replicaRecheck/2)); n != 0 || stale {
		t.Errorf("node without replicas: target = %d, %v; want 0, false", n, stale)
	}
	if n, stale := c.target("a:1", 1, now.Add(replicaRecheck)); n != 0 || !stale {
		t.Errorf("after the recheck period: target = %d, %v; want 0, true", n, stale)
	}
	if n, _ := c.target("b:1", 1, now); n != 1 {
		t.Errorf("another node: target = %d, want 1", n)
	}
	c.record("a:1", 1, now)
	if n, stale := c.target("a:1", 1, now); n != 1 || stale {
		t.Errorf("node with a replica again: target = %d, %v; want 1, false", n, stale)
	}
}
