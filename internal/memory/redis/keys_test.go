package redis

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

func said(ts float64, text string) *v1.Event {
	return &v1.Event{Author: "user", Timestamp: ts, Content: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}}
}

// userKeysIn lists the keys under prefix, on every primary of a cluster.
func userKeysIn(t *testing.T, svc *Service, prefix string) []string {
	t.Helper()
	var keys []string
	scan := func(node *goredis.Client) {
		iter := node.Scan(t.Context(), 0, prefix+":*", 1000).Iterator()
		for iter.Next(t.Context()) {
			keys = append(keys, iter.Val())
		}
		if err := iter.Err(); err != nil {
			t.Fatal(err)
		}
	}
	switch c := svc.client.(type) {
	case *goredis.ClusterClient:
		var (
			mu    sync.Mutex
			nodes []*goredis.Client
		)
		// ForEachMaster calls at once on every primary.
		if err := c.ForEachMaster(t.Context(), func(_ context.Context, n *goredis.Client) error {
			mu.Lock()
			defer mu.Unlock()
			nodes = append(nodes, n)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for _, n := range nodes {
			scan(n)
		}
	case *goredis.Client:
		scan(c)
	}
	slices.Sort(keys)
	return keys
}

// TestReAddLeavesNoStaleKeys: re-adding a session with other words removes
// the old words' sets and entries, so the index holds exactly what the
// user's sessions hold now.
func TestReAddLeavesNoStaleKeys(t *testing.T) {
	t.Parallel()
	prefix := randomPrefix(t)
	svc := newTestService(t, testRedisEnv, Options{KeyPrefix: prefix})
	ctx := t.Context()
	add := func(id string, events ...*v1.Event) {
		t.Helper()
		if err := svc.AddSession(ctx, &v1.Session{AppName: "a/b", UserId: "{u}", Id: id, Events: events}); err != nil {
			t.Fatal(err)
		}
	}
	add("s1", said(1, "alpha beta"), said(2, "beta gamma"))
	add("s2", said(3, "gamma delta"))
	add("s1", said(4, "epsilon"), said(5, "gamma"), said(6, "42"))
	k := svc.keys.user("a/b", "{u}")
	want := []string{k.added, k.entries, k.sessions, k.word + "delta", k.word + "epsilon", k.word + "gamma"}
	slices.Sort(want)
	if diff := cmp.Diff(want, userKeysIn(t, svc, prefix)); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	entries, err := svc.client.HKeys(ctx, k.entries).Result()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(entries)
	if diff := cmp.Diff([]string{"0:0", "0:1", "1:0"}, entries); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	gamma, err := svc.client.ZRangeWithScores(ctx, k.word+"gamma", 0, -1).Result()
	if err != nil {
		t.Fatal(err)
	}
	wantGamma := []goredis.Z{{Score: 1, Member: "0:1"}, {Score: 1 << 24, Member: "1:0"}}
	if diff := cmp.Diff(wantGamma, gamma); diff != "" {
		t.Errorf("gamma's set (-want +got):\n%s", diff)
	}
	add("s1")
	add("s2")
	want = []string{k.added, k.sessions}
	slices.Sort(want)
	if diff := cmp.Diff(want, userKeysIn(t, svc, prefix)); diff != "" {
		t.Errorf("keys once emptied (-want +got):\n%s", diff)
	}
}

// TestClusterKeySlots: every key of one app and user sits in one slot,
// whatever their names hold, and users spread over the primaries.
func TestClusterKeySlots(t *testing.T) {
	t.Parallel()
	prefix := randomPrefix(t)
	svc := newTestService(t, testClusterEnv, Options{KeyPrefix: prefix})
	ctx := t.Context()
	if err := svc.AddSession(ctx, &v1.Session{AppName: "a/{b}", UserId: "u}", Id: "s{", Events: []*v1.Event{said(1, "hello there"), said(2, "general")}}); err != nil {
		t.Fatal(err)
	}
	cc := svc.client.(*goredis.ClusterClient)
	keys := userKeysIn(t, svc, prefix)
	if len(keys) != 6 {
		t.Fatalf("keys %q, want 6", keys)
	}
	slots := map[int64]bool{}
	for _, key := range keys {
		slot, err := cc.ClusterKeySlot(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		slots[slot] = true
	}
	if len(slots) != 1 {
		t.Errorf("the user's keys %q sit in %d slots", keys, len(slots))
	}
	primaries := map[string]bool{}
	for i := range 32 {
		node, err := cc.MasterForKey(ctx, svc.keys.user("app", "user"+strings.Repeat("x", i)).entries)
		if err != nil {
			t.Fatal(err)
		}
		primaries[node.Options().Addr] = true
	}
	if len(primaries) < 2 {
		t.Errorf("32 users of one app sit on %d primaries, want them spread", len(primaries))
	}
}

func TestEscapeKeepsNamesApart(t *testing.T) {
	t.Parallel()
	k := keyspace{prefix: "as"}
	seen := map[string][2]string{}
	for _, n := range [][2]string{{"a/b", "c"}, {"a", "b/c"}, {"a%2Fb", "c"}, {"a{", "}b"}, {"a", "{}b"}, {"", "a/b"}} {
		key := k.user(n[0], n[1]).entries
		if prev, ok := seen[key]; ok {
			t.Errorf("%q and %q share key %q", prev, n, key)
		}
		seen[key] = n
		if strings.Count(key, "{") != 1 || strings.Count(key, "}") != 1 {
			t.Errorf("key %q of %q holds more than one hash tag", key, n)
		}
	}
}

// TestUnreachable: a store that cannot be reached fails with
// ErrUnavailable.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	svc, err := New("redis://127.0.0.1:1/0", Options{DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := t.Context()
	if err := svc.Ping(ctx); !errors.Is(err, memory.ErrUnavailable) {
		t.Errorf("Ping: %v, want ErrUnavailable", err)
	}
	if err := svc.AddSession(ctx, &v1.Session{AppName: "a", UserId: "u", Id: "s", Events: []*v1.Event{said(1, "hi")}}); !errors.Is(err, memory.ErrUnavailable) {
		t.Errorf("AddSession: %v, want ErrUnavailable", err)
	}
	if _, err := svc.Search(ctx, "a", "u", "hi"); !errors.Is(err, memory.ErrUnavailable) {
		t.Errorf("Search: %v, want ErrUnavailable", err)
	}
}
