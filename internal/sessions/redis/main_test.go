package redis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	goredis "github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
)

// testRedisEnv names the variable that holds the test server's URL.
const testRedisEnv = "AGENTSVC_TEST_REDIS"

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// After failed dials go-redis probes the server from a goroutine
		// that sleeps a second between attempts and sees the pool closed
		// only when it wakes; it ends on its own.
		goleak.IgnoreAnyFunction("github.com/redis/go-redis/v9/internal/pool.(*ConnPool).tryDial"),
	)
}

// testURL returns the test server's URL. Without one the test skips, except
// in CI, where the Redis tests must run and the test fails instead.
func testURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(testRedisEnv)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set; CI runs the Redis tests against a real server (scripts/with-redis.sh)", testRedisEnv)
		}
		t.Skipf("%s is not set; run under scripts/with-redis.sh", testRedisEnv)
	}
	return url
}

// newTestService connects to the test server with a key prefix of its own,
// so that tests run in parallel on one server, and removes its keys after.
func newTestService(t testing.TB, opts Options) *Service {
	t.Helper()
	url := testURL(t)
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = randomPrefix(t)
	}
	svc, err := New(url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		dropKeys(t, svc, opts.KeyPrefix)
		if err := svc.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return svc
}

func randomPrefix(t testing.TB) string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "test-" + hex.EncodeToString(b)
}

// dropKeys deletes every key under prefix, on every primary of a cluster.
func dropKeys(t testing.TB, svc *Service, prefix string) {
	t.Helper()
	// Cleanups run after t's context is cancelled.
	ctx := context.WithoutCancel(t.Context())
	if cc, ok := svc.client.(*goredis.ClusterClient); ok {
		err := cc.ForEachMaster(ctx, func(ctx context.Context, node *goredis.Client) error {
			return dropNodeKeys(ctx, node, prefix, true)
		})
		if err != nil {
			t.Logf("deleting test keys: %v", err)
		}
		return
	}
	if err := dropNodeKeys(ctx, svc.client, prefix, false); err != nil {
		t.Logf("deleting test keys: %v", err)
	}
}

// dropNodeKeys deletes the keys under prefix on one node; on a cluster node
// one by one, as the keys of one UNLINK must share a slot.
func dropNodeKeys(ctx context.Context, c goredis.Cmdable, prefix string, oneByOne bool) error {
	iter := c.Scan(ctx, 0, prefix+":*", 500).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return err
	}
	if oneByOne {
		_, err := c.Pipelined(ctx, func(p goredis.Pipeliner) error {
			for _, k := range keys {
				p.Unlink(ctx, k)
			}
			return nil
		})
		return err
	}
	for len(keys) > 0 {
		n := min(len(keys), 500)
		if err := c.Unlink(ctx, keys[:n]...).Err(); err != nil {
			return err
		}
		keys = keys[n:]
	}
	return nil
}
