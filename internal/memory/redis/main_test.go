package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	goredis "github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/agentsvc/agentsvc/internal/memory"
)

// The variables that hold the test servers' URLs, set by
// scripts/with-redis.sh and scripts/with-redis-cluster.sh.
const (
	testRedisEnv   = "AGENTSVC_TEST_REDIS"
	testClusterEnv = "AGENTSVC_TEST_REDIS_CLUSTER"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// After failed dials go-redis probes the server from a goroutine
		// that sleeps a second between attempts and sees the pool closed
		// only when it wakes; it ends on its own.
		goleak.IgnoreAnyFunction("github.com/redis/go-redis/v9/internal/pool.(*ConnPool).tryDial"),
	)
}

// testURL returns the URL env names. Without one the test skips, except in
// CI, where the Redis tests must run and the test fails instead.
func testURL(tb testing.TB, env string) string {
	tb.Helper()
	url := os.Getenv(env)
	if url == "" {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%s is not set; CI runs the Redis tests against real servers (scripts/with-redis.sh, scripts/with-redis-cluster.sh)", env)
		}
		tb.Skipf("%s is not set; run under scripts/with-redis.sh and scripts/with-redis-cluster.sh", env)
	}
	return url
}

// newTestService connects to the server env names with a key prefix of its
// own, so that tests run in parallel on one server, and removes its keys
// after.
func newTestService(tb testing.TB, env string, opts Options) *Service {
	tb.Helper()
	url := testURL(tb, env)
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = randomPrefix(tb)
	}
	svc, err := New(url, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		dropKeys(tb, svc, opts.KeyPrefix)
		if err := svc.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return svc
}

// factory returns the contract suite's factory for the server env names.
func factory(env string) func(tb testing.TB, l memory.Limits) memory.Service {
	return func(tb testing.TB, l memory.Limits) memory.Service {
		return newTestService(tb, env, Options{Limits: l})
	}
}

func randomPrefix(tb testing.TB) string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	return "test-" + hex.EncodeToString(b)
}

// dropKeys deletes every key under prefix, on every primary of a cluster.
func dropKeys(tb testing.TB, svc *Service, prefix string) {
	tb.Helper()
	// Cleanups run after the test's context is cancelled.
	ctx := context.WithoutCancel(tb.Context())
	drop := func(ctx context.Context, node *goredis.Client) error {
		iter := node.Scan(ctx, 0, prefix+":*", 1000).Iterator()
		var keys []string
		for iter.Next(ctx) {
			keys = append(keys, iter.Val())
		}
		if err := iter.Err(); err != nil {
			return err
		}
		// One by one: the keys of one UNLINK must share a slot.
		_, err := node.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for _, k := range keys {
				p.Unlink(ctx, k)
			}
			return nil
		})
		return err
	}
	var err error
	switch c := svc.client.(type) {
	case *goredis.ClusterClient:
		err = c.ForEachMaster(ctx, drop)
	case *goredis.Client:
		err = drop(ctx, c)
	}
	if err != nil {
		tb.Logf("deleting test keys: %v", err)
	}
}
