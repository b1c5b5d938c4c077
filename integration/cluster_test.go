package integration

import "testing"

// testRedisClusterURLEnv names the variable scripts/with-redis-cluster.sh
// sets to the redis+cluster:// URL of the shared test cluster.
const testRedisClusterURLEnv = "AGENTSVC_TEST_REDIS_CLUSTER"

// sharedRedisClusterURL returns the URL of the shared test Redis Cluster.
// Without one the test skips, except in CI, where it fails.
func sharedRedisClusterURL(t *testing.T) string {
	t.Helper()
	return sharedStoreURL(t, testRedisClusterURLEnv, "scripts/with-redis-cluster.sh")
}

// forEachSharedRedis runs test, in parallel subtests, against the shared
// test Redis ("redis") and the shared test Redis Cluster ("cluster").
func forEachSharedRedis(t *testing.T, test func(t *testing.T, url string)) {
	t.Helper()
	for _, store := range []struct {
		name string
		url  func(*testing.T) string
	}{{"redis", sharedRedisURL}, {"cluster", sharedRedisClusterURL}} {
		t.Run(store.name, func(t *testing.T) {
			t.Parallel()
			test(t, store.url(t))
		})
	}
}
