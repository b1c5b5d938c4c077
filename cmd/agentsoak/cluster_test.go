package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// nodesAtRest is CLUSTER NODES of a 3+3 cluster at rest.
const nodesAtRest = `a1 127.0.0.1:7001@17001 myself,master - 0 0 1 connected 0-5460
a2 127.0.0.1:7002@17002 master - 0 0 2 connected 5461-10922
a3 127.0.0.1:7003@17003 master - 0 0 3 connected 10923-16383
b1 127.0.0.1:7004@17004 slave a1 0 0 1 connected
b2 127.0.0.1:7005@17005 slave a2 0 0 2 connected
b3 127.0.0.1:7006@17006 slave a3 0 0 3 connected
`

func TestParseClusterNodes(t *testing.T) {
	t.Parallel()
	nodes := parseClusterNodes(nodesAtRest + "garbage line\n")
	if len(nodes) != 6 {
		t.Fatalf("%d nodes, want 6: %+v", len(nodes), nodes)
	}
	want := clusterNode{id: "a2", addr: "127.0.0.1:7002", master: "-", primary: true, connected: true, slots: []string{"5461-10922"}}
	if diff := cmp.Diff(want, nodes[1], cmp.AllowUnexported(clusterNode{})); diff != "" {
		t.Errorf("second node (-want +got):\n%s", diff)
	}
	if nodes[3].primary || nodes[3].master != "a1" {
		t.Errorf("replica parsed as %+v", nodes[3])
	}
	if err := healthy(nodes, 6); err != nil {
		t.Errorf("healthy at rest: %v", err)
	}
}

func TestHealthy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, reply string
		want        string // in the error; "" for healthy
	}{
		{"primary failed", strings.Replace(nodesAtRest, "master - 0 0 2", "master,fail - 0 0 2", 1), "7002 failed"},
		{"primary suspected", strings.Replace(nodesAtRest, "master - 0 0 2", "master,fail? - 0 0 2", 1), "7002 failed"},
		{"replica disconnected", strings.Replace(nodesAtRest, "a3 0 0 3 connected", "a3 0 0 3 disconnected", 1), "7006 failed or not connected"},
		// After a failover, before the killed node rejoins: b2 is primary
		// and alone.
		{"promoted replica alone", strings.NewReplacer(
			"a2 127.0.0.1:7002@17002 master - 0 0 2 connected 5461-10922", "a2 127.0.0.1:7002@17002 master,fail - 0 0 2 disconnected",
			"b2 127.0.0.1:7005@17005 slave a2 0 0 2 connected", "b2 127.0.0.1:7005@17005 master - 0 0 4 connected 5461-10922",
		).Replace(nodesAtRest), "7002 failed"},
		// The killed node rejoined as b2's replica.
		{"rejoined as a replica", strings.NewReplacer(
			"a2 127.0.0.1:7002@17002 master - 0 0 2 connected 5461-10922", "a2 127.0.0.1:7002@17002 slave b2 0 0 4 connected",
			"b2 127.0.0.1:7005@17005 slave a2 0 0 2 connected", "b2 127.0.0.1:7005@17005 master - 0 0 4 connected 5461-10922",
		).Replace(nodesAtRest), ""},
		{"a node missing", strings.SplitAfterN(nodesAtRest, "\n", 2)[1], "5 nodes known"},
	}
	for _, tt := range tests {
		err := healthy(parseClusterNodes(tt.reply), 6)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
		}
	}
}

func TestHoldsSlot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ranges []string
		slot   int64
		want   bool
	}{
		{[]string{"0-5460"}, 0, true},
		{[]string{"0-5460"}, 5460, true},
		{[]string{"0-5460"}, 5461, false},
		{[]string{"100", "200-300"}, 100, true},
		{[]string{"100", "200-300"}, 250, true},
		{[]string{"100", "200-300"}, 150, false},
		{[]string{"[93->-a2]"}, 93, false},
		{nil, 1, false},
	}
	for _, tt := range tests {
		if got := holdsSlot(tt.ranges, tt.slot); got != tt.want {
			t.Errorf("holdsSlot(%v, %d) = %v, want %v", tt.ranges, tt.slot, got, tt.want)
		}
	}
}

func TestReadRedisConf(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.conf")
	if err := os.WriteFile(good, []byte("port 7001\nbind 127.0.0.1\npidfile /x/redis.pid\nappendonly yes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if port, pid, err := readRedisConf(good); err != nil || port != "7001" || pid != "/x/redis.pid" {
		t.Errorf("readRedisConf = %q, %q, %v", port, pid, err)
	}
	bad := filepath.Join(dir, "bad.conf")
	if err := os.WriteFile(bad, []byte("port 7001\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{bad, filepath.Join(dir, "missing.conf")} {
		if _, _, err := readRedisConf(f); err == nil {
			t.Errorf("readRedisConf(%s): want an error", filepath.Base(f))
		}
	}
}

func TestClusterFlags(t *testing.T) {
	t.Parallel()
	base := []string{"--fake-url", "http://f", "--debug-url", "http://d", "--server-pid", "1"}
	cluster := append([]string{"--addr", "a:1, b:2", "--cluster-confs", "n1.conf,n2.conf"}, base...)
	o, err := parseFlags(append([]string{"--primary-kill-every", "1m", "--replica-kill-every", "1m",
		"--replica-start", "r.sh", "--replica-pidfile", "r.pid", "--max-unavailable", "10s"}, cluster...), io.Discard)
	if err != nil {
		t.Fatalf("cluster flags: %v", err)
	}
	if diff := cmp.Diff([]string{"a:1", "b:2"}, o.addrs); diff != "" {
		t.Errorf("addrs (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"n1.conf", "n2.conf"}, o.clusterConfs); diff != "" {
		t.Errorf("cluster confs (-want +got):\n%s", diff)
	}
	for _, args := range [][]string{
		append([]string{"--addr", ","}, base...),
		append([]string{"--primary-kill-every", "1m", "--redis-conf", "c", "--redis-pidfile", "p", "--redis-addr", "a"}, base...),
		append([]string{"--redis-conf", "c"}, cluster...),
		append([]string{"--replica-kill-every", "1m", "--replica-start", "r.sh", "--replica-pidfile", "r.pid",
			"--cluster-confs", "n1.conf"}, base...),
		append([]string{"--replica-kill-every", "1m"}, cluster...),
		append([]string{"--max-unavailable", "-1s"}, cluster...),
		append([]string{"--primary-down", "-1s"}, cluster...),
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v: want an error", args)
		}
	}
}
