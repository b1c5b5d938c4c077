package redis

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/sessionstest"
)

// testClusterEnv names the variable that holds the test cluster's URL.
const testClusterEnv = "AGENTSVC_TEST_REDIS_CLUSTER"

// testClusterURL returns the test cluster's URL. Without one the test skips,
// except in CI, where the cluster tests must run and the test fails instead.
func testClusterURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(testClusterEnv)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set; CI runs the Redis Cluster tests against a real cluster (scripts/with-redis-cluster.sh)", testClusterEnv)
		}
		t.Skipf("%s is not set; run under scripts/with-redis-cluster.sh", testClusterEnv)
	}
	return url
}

// newClusterTestService connects to the test cluster with a key prefix of
// its own and a round-trip counter on every node, and removes its keys
// after.
func newClusterTestService(t testing.TB, opts Options) (*Service, *roundTrips) {
	t.Helper()
	_, o, err := parseURL(testClusterURL(t), &opts)
	if err != nil {
		t.Fatal(err)
	}
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = randomPrefix(t)
	}
	o.DisableIdentity = true
	o.ContextTimeoutEnabled = true
	client := goredis.NewClusterClient(o)
	counter := &roundTrips{}
	client.OnNewNode(func(node *goredis.Client) { node.AddHook(counter) })
	svc := NewFromClusterClient(client, opts)
	t.Cleanup(func() {
		dropKeys(t, svc, opts.KeyPrefix)
		if err := svc.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return svc, counter
}

func TestClusterContract(t *testing.T) {
	t.Parallel()
	testClusterURL(t)
	sessionstest.Run(t, func(t *testing.T) sessions.Service {
		svc, _ := newClusterTestService(t, Options{})
		return svc
	})
}

func TestClusterContractWithTTL(t *testing.T) {
	t.Parallel()
	testClusterURL(t)
	sessionstest.Run(t, func(t *testing.T) sessions.Service {
		svc, _ := newClusterTestService(t, Options{TTL: time.Hour})
		return svc
	})
}

func TestClusterContractLimits(t *testing.T) {
	t.Parallel()
	testClusterURL(t)
	sessionstest.RunLimits(t, func(t *testing.T, l sessions.Limits) sessions.Service {
		svc, _ := newClusterTestService(t, Options{Limits: l})
		return svc
	})
}

// TestClusterKeySlots checks the cluster layout: a session's keys, its
// user's state and index in one slot, app state in its own, and the users
// of one app spread over the primaries.
func TestClusterKeySlots(t *testing.T) {
	t.Parallel()
	svc, _ := newClusterTestService(t, Options{TTL: time.Hour})
	ctx := t.Context()
	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "a/{b}", UserID: "u}", SessionID: "s{",
		State: mustStruct(t, map[string]any{"k": "v", "user:u": 1, "app:a": 2})})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.AppendEvent(ctx, sess, textEvent(t, "hello", map[string]any{"k": 2, "app:a": 3, "user:u": 4})); err != nil {
		t.Fatal(err)
	}
	cc := svc.client.(*goredis.ClusterClient)
	slotOf := func(key string) int64 {
		slot, err := cc.ClusterKeySlot(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		return slot
	}
	sk := svc.keys.session("a/{b}", "u}", "s{")
	slot := slotOf(sk.meta)
	for _, key := range []string{sk.events, sk.ts, sk.state, sk.lease, svc.keys.userState("a/{b}", "u}"),
		svc.keys.index("a/{b}", "u}"), svc.keys.scriptAppState("a/{b}", "u}")} {
		if got := slotOf(key); got != slot {
			t.Errorf("key %q is in slot %d, the session's meta in %d", key, got, slot)
		}
	}
	for key, want := range map[string]map[string]string{
		sk.state:                               {"k": "2"},
		svc.keys.userState("a/{b}", "u}"):      {"u": "4"},
		svc.keys.appState("a/{b}"):             {"a": "3"},
		svc.keys.scriptAppState("a/{b}", "u}"): {},
	} {
		got, err := cc.HGetAll(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("hash %q (-want +got):\n%s", key, diff)
		}
	}

	primaries := map[string]bool{}
	for i := range 32 {
		node, err := cc.MasterForKey(ctx, svc.keys.index("app", "user"+strings.Repeat("x", i)))
		if err != nil {
			t.Fatal(err)
		}
		primaries[node.Options().Addr] = true
	}
	if len(primaries) < 2 {
		t.Errorf("32 users of one app sit on %d primaries, want them spread", len(primaries))
	}
}

// TestClusterRoundTrips counts what each operation sends: an append is one
// pipeline, its script then WAIT, on the session's primary; app: keys cost
// a second one; reads fetch app state alongside.
func TestClusterRoundTrips(t *testing.T) {
	t.Parallel()
	svc, counter := newClusterTestService(t, Options{TTL: time.Hour})
	ctx := t.Context()
	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		op   func() error
		want []string
	}{
		{"append", func() error {
			return svc.AppendEvent(ctx, sess, textEvent(t, "x", map[string]any{"k": 1, "user:u": 3, "temp:t": 4}))
		}, []string{"pipeline(evalsha,wait)"}},
		{"append_app_state", func() error {
			return svc.AppendEvent(ctx, sess, textEvent(t, "x", map[string]any{"k": 1, "app:a": 2}))
		}, []string{"pipeline(evalsha,wait)", "pipeline(hset,wait)"}},
		{"get", func() error {
			_, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id, NumRecentEvents: 1})
			return err
		}, []string{"evalsha", "hgetall"}},
		{"create", func() error {
			_, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u"})
			return err
		}, []string{"pipeline(evalsha,wait)", "hgetall"}},
		{"delete", func() error { return svc.Delete(ctx, "app", "u", "missing") }, []string{"evalsha"}},
	}
	for _, tc := range tests {
		// The first call may load a script on its primary.
		if err := tc.op(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		counter.reset()
		if err := tc.op(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, got := counter.reset()
		// The app state read runs concurrently with the script.
		if tc.name == "get" && len(got) == 2 && got[0] == "hgetall" {
			got[0], got[1] = got[1], got[0]
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s sent (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestClusterWritesLoadScriptsOnEveryPrimary is not parallel: it empties
// every primary's script cache. Writes that wait for replicas go to the
// primary directly, so they must load their scripts there themselves.
func TestClusterWritesLoadScriptsOnEveryPrimary(t *testing.T) {
	svc, counter := newClusterTestService(t, Options{})
	ctx := t.Context()
	cc := svc.client.(*goredis.ClusterClient)
	var handles []*v1.Session
	for i := range 16 {
		user := "user-" + strings.Repeat("y", i)
		sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: user})
		if err != nil {
			t.Fatal(err)
		}
		handles = append(handles, sess)
	}
	if err := cc.ForEachMaster(ctx, func(ctx context.Context, c *goredis.Client) error {
		return c.ScriptFlush(ctx).Err()
	}); err != nil {
		t.Fatal(err)
	}
	counter.reset()
	for _, h := range handles {
		if err := svc.AppendEvent(ctx, h, textEvent(t, "after flush", nil)); err != nil {
			t.Fatalf("append after SCRIPT FLUSH: %v", err)
		}
	}
	_, cmds := counter.reset()
	loads := 0
	for _, c := range cmds {
		if c == "script" {
			loads++
		}
	}
	if loads == 0 {
		t.Errorf("appends after SCRIPT FLUSH sent %v, want scripts loaded again", cmds)
	}
	if _, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: handles[0].UserId, SessionID: handles[0].Id}); err != nil {
		t.Fatal(err)
	}
}

func TestParseClusterURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url      string
		addrs    []string
		user     string
		tls      bool
		wantErr  bool
		replicas int
		timeout  time.Duration
		poolSize int
	}{
		{url: "redis+cluster://10.0.0.1:7000,10.0.0.2:7001,h3:7002", addrs: []string{"10.0.0.1:7000", "10.0.0.2:7001", "h3:7002"}, replicas: 1, timeout: DefaultWaitTimeout},
		{url: "rediss+cluster://me:p%40ss@a:1,b:2/?pool_size=7&wait_replicas=2&wait_timeout=100ms", addrs: []string{"a:1", "b:2"}, user: "me", tls: true, replicas: 2, timeout: 100 * time.Millisecond, poolSize: 7},
		{url: "redis+cluster://a:1/0?wait_replicas=0", addrs: []string{"a:1"}},
		// At most half the read timeout, 5s by default.
		{url: "redis+cluster://a:1?wait_timeout=10s", addrs: []string{"a:1"}, replicas: 1, timeout: 2500 * time.Millisecond},
		{url: "redis+cluster://a:1/3", wantErr: true},
		{url: "redis+cluster://a,b:2", wantErr: true},
		{url: "redis+cluster://a:1?wait_replicas=17", wantErr: true},
		{url: "redis+cluster://a:1?wait_timeout=0s", wantErr: true},
		{url: "redis+cluster://a:1?no_such_option=1", wantErr: true},
	}
	if _, err := NewCluster("redis+cluster://a:1", Options{KeyPrefix: "as{x}"}); err == nil {
		t.Error("a key prefix with braces accepted")
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			t.Parallel()
			svc, err := New(tc.url, Options{BreakerFailures: -1})
			if tc.wantErr {
				if err == nil {
					svc.Close()
					t.Fatal("New succeeded, want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			o := svc.client.(*goredis.ClusterClient).Options()
			if diff := cmp.Diff(tc.addrs, o.Addrs); diff != "" {
				t.Errorf("addrs (-want +got):\n%s", diff)
			}
			if o.Username != tc.user || (tc.user != "" && o.Password != "p@ss") {
				t.Errorf("credentials %q/%q", o.Username, o.Password)
			}
			if (o.TLSConfig != nil) != tc.tls {
				t.Errorf("TLS %v, want %v", o.TLSConfig != nil, tc.tls)
			}
			if tc.tls && o.TLSConfig.ServerName != "" {
				t.Errorf("TLS server name %q for every node, want each node's own host", o.TLSConfig.ServerName)
			}
			if tc.poolSize != 0 && o.PoolSize != tc.poolSize {
				t.Errorf("pool size %d, want %d", o.PoolSize, tc.poolSize)
			}
			if !svc.keys.cluster {
				t.Error("not the cluster key layout")
			}
			want := waitPolicy{replicas: tc.replicas, timeout: tc.timeout}
			if svc.wait != want {
				t.Errorf("wait %+v, want %+v", svc.wait, want)
			}
		})
	}
}

func TestWaitOnSingleNode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url  string
		opts Options
		want waitPolicy
	}{
		{"redis://h:1/0", Options{}, waitPolicy{}},
		{"redis://h:1/0?wait_replicas=1", Options{}, waitPolicy{1, DefaultWaitTimeout}},
		{"redis://h:1/0?wait_replicas=1&wait_timeout=2s", Options{ReadTimeout: time.Second}, waitPolicy{1, 500 * time.Millisecond}},
		{"redis://h:1/0?wait_replicas=1", Options{WaitReplicas: -1}, waitPolicy{}},
		{"redis://h:1/0", Options{WaitReplicas: 2, WaitTimeout: time.Millisecond}, waitPolicy{2, time.Millisecond}},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			t.Parallel()
			svc, err := New(tc.url, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			if svc.wait != tc.want {
				t.Errorf("wait %+v, want %+v", svc.wait, tc.want)
			}
			if svc.keys.cluster {
				t.Error("cluster key layout on a single node")
			}
		})
	}
}
