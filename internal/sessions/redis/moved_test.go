package redis

import (
	"context"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestClusterAppendFollowsAMovedSlot moves the slot of a session to another
// primary behind the Service's back: appends, which go to the primary the
// Service knew of, are redirected (MOVED), and the Service learns the new
// place and carries on, waiting for the new primary's replica.
func TestClusterAppendFollowsAMovedSlot(t *testing.T) {
	testClusterURL(t) // the cluster runs; this test starts one of its own to reshape
	nodes := startCluster(t)
	seeds := make([]string, len(nodes))
	for i, n := range nodes {
		seeds[i] = n.addr()
	}
	// The replica acknowledgement may wait longer than in production: the
	// cluster shares two cores with the rest of the tests.
	svc, err := New("redis+cluster://"+strings.Join(seeds, ","), Options{KeyPrefix: "moved",
		ReadTimeout: 4 * time.Second, WaitTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.AppendEvent(ctx, sess, textEvent(t, "before", map[string]any{"user:n": 1})); err != nil {
		t.Fatal(err)
	}

	cc := svc.client.(*goredis.ClusterClient)
	key := svc.keys.index("app", "u")
	slot, err := cc.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}
	src, err := cc.MasterForKey(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	var dst *goredis.Client
	var primaries []*goredis.Client
	for _, n := range nodes {
		c := goredis.NewClient(&goredis.Options{Addr: n.addr(), DisableIdentity: true})
		defer c.Close()
		repl, err := c.Info(ctx, "replication").Result()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(repl, "role:master") {
			continue
		}
		primaries = append(primaries, c)
		if dst == nil && n.addr() != src.Options().Addr {
			dst = c
		}
	}
	id := func(c *goredis.Client) string {
		id, err := c.ClusterMyID(ctx).Result()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	srcID, dstID := id(src), id(dst)
	srcAdmin := goredis.NewClient(&goredis.Options{Addr: src.Options().Addr, DisableIdentity: true})
	defer srcAdmin.Close()
	host, port, _ := strings.Cut(dst.Options().Addr, ":")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(dst.Do(ctx, "cluster", "setslot", slot, "importing", srcID).Err())
	must(srcAdmin.Do(ctx, "cluster", "setslot", slot, "migrating", dstID).Err())
	keys, err := srcAdmin.ClusterGetKeysInSlot(ctx, int(slot), 1000).Result()
	must(err)
	if len(keys) == 0 {
		t.Fatal("no keys in the session's slot")
	}
	args := []any{"migrate", host, port, "", 0, 5000, "keys"}
	for _, k := range keys {
		args = append(args, k)
	}
	must(srcAdmin.Do(ctx, args...).Err())
	for _, c := range primaries {
		must(c.Do(ctx, "cluster", "setslot", slot, "node", dstID).Err())
	}

	// The Service still takes src for the slot's primary.
	if err := svc.AppendEvent(ctx, sess, textEvent(t, "after", map[string]any{"user:n": 2})); err != nil {
		t.Fatalf("append after the slot moved: %v", err)
	}
	got, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 2 || got.State.Fields["user:n"].GetNumberValue() != 2 {
		t.Errorf("after the move: %d events, state %v; want 2 events and user:n 2", len(got.Events), got.State)
	}
	if n, err := dst.Exists(ctx, key).Result(); err != nil || n != 1 {
		t.Errorf("the user's index is not on the new primary: %d, %v", n, err)
	}
}
