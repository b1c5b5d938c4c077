package redis

import (
	"testing"
	"time"
)

func TestCountOnline(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, info string
		want       int
	}{
		{"no replica", "# Replication\r\nrole:master\r\nconnected_slaves:0\r\n", 0},
		{"one online", "role:master\r\nconnected_slaves:1\r\nslave0:ip=127.0.0.1,port=7001,state=online,offset=42,lag=0\r\n", 1},
		{"one syncing", "role:master\r\nconnected_slaves:1\r\nslave0:ip=127.0.0.1,port=7001,state=wait_bgsave,offset=0,lag=0\r\n", 0},
		{"two, one online", "slave0:ip=a,port=1,state=send_bulk,offset=0,lag=0\r\nslave1:ip=b,port=2,state=online,offset=9,lag=1\r\n", 1},
		{"a replica's own info", "role:slave\r\nslave_read_only:1\r\nslave_repl_offset:5\r\n", 0},
	} {
		if got := countOnline(tc.info); got != tc.want {
			t.Errorf("%s: countOnline = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestInsyncTarget(t *testing.T) {
	t.Parallel()
	var c insync
	now := time.Unix(1000, 0)
	if n, stale := c.target("a:1", 1, now); n != 1 || stale {
		t.Fatalf("unknown node: target = %d, %v; want 1, false", n, stale)
	}
	if !c.record("a:1", 0, 1, now) {
		t.Error("first record of a short node: want newly short")
	}
	if c.record("a:1", 0, 1, now) {
		t.Error("second record of a short node: want not newly short")
	}
	if n, stale := c.target("a:1", 1, now.Add(insyncRecheck/2)); n != 0 || stale {
		t.Errorf("short node: target = %d, %v; want 0, false", n, stale)
	}
	if n, stale := c.target("a:1", 1, now.Add(insyncRecheck)); n != 0 || !stale {
		t.Errorf("short node after the recheck period: target = %d, %v; want 0, true", n, stale)
	}
	if n, _ := c.target("b:1", 1, now); n != 1 {
		t.Errorf("another node: target = %d, want 1", n)
	}
	c.record("a:1", 1, 1, now)
	if n, stale := c.target("a:1", 1, now); n != 1 || stale {
		t.Errorf("node back in sync: target = %d, %v; want 1, false", n, stale)
	}
}
