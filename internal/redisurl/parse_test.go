package redisurl

import (
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url     string
		take    []string
		cluster bool
		addrs   []string
		user    string
		pass    string
		tls     bool
		db      int
		pool    int
		params  url.Values
	}{
		{url: "redis://127.0.0.1:6379/0", addrs: []string{"127.0.0.1:6379"}},
		{url: "redis://h", addrs: []string{"h:6379"}},
		{url: "rediss://me:p%40ss@h:6380/2?pool_size=7", addrs: []string{"h:6380"}, user: "me", pass: "p@ss", tls: true, db: 2, pool: 7},
		{url: "redis://:p@ss@h:1/0/", addrs: []string{"h:1"}, pass: "p@ss"},
		{url: "redis://me@h:1", addrs: []string{"h:1"}, user: "me"},
		{url: "redis://h:1/0?wait_replicas=1&wait_timeout=100ms&pool_size=3", take: []string{"wait_replicas", "wait_timeout"},
			addrs: []string{"h:1"}, pool: 3, params: url.Values{"wait_replicas": {"1"}, "wait_timeout": {"100ms"}}},
		{url: "redis://h:1?client_name=a%40b", addrs: []string{"h:1"}},
		{url: "redis+cluster://10.0.0.1:7000,10.0.0.2:7001,h3:7002", cluster: true, addrs: []string{"10.0.0.1:7000", "10.0.0.2:7001", "h3:7002"}},
		{url: "rediss+cluster://me:p%40ss@a:1,b:2/?pool_size=7&wait_replicas=2", take: []string{"wait_replicas"},
			cluster: true, addrs: []string{"a:1", "b:2"}, user: "me", pass: "p@ss", tls: true, pool: 7, params: url.Values{"wait_replicas": {"2"}}},
		{url: "redis+cluster://a:1/0", cluster: true, addrs: []string{"a:1"}},
		{url: "redis+cluster://a:1/0/", cluster: true, addrs: []string{"a:1"}},
		{url: "redis+cluster://[::1]:7000,b:2?addr=c:3", cluster: true, addrs: []string{"[::1]:7000", "c:3", "b:2"}},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			t.Parallel()
			single, cluster, params, err := Parse(tc.url, tc.take...)
			if err != nil {
				t.Fatal(err)
			}
			if (single == nil) == (cluster == nil) {
				t.Fatalf("single %v, cluster %v: want exactly one", single, cluster)
			}
			if (cluster != nil) != tc.cluster {
				t.Errorf("cluster %v, want %v", cluster != nil, tc.cluster)
			}
			var (
				addrs      []string
				user, pass string
				tls        bool
				db, pool   int
			)
			if cluster != nil {
				addrs, user, pass, tls, pool = cluster.Addrs, cluster.Username, cluster.Password, cluster.TLSConfig != nil, cluster.PoolSize
				if tls && cluster.TLSConfig.ServerName != "" {
					t.Errorf("TLS server name %q for every node, want each node's own host", cluster.TLSConfig.ServerName)
				}
			} else {
				addrs, user, pass, tls, db, pool = []string{single.Addr}, single.Username, single.Password, single.TLSConfig != nil, single.DB, single.PoolSize
				if tls && single.TLSConfig.ServerName != "h" {
					t.Errorf("TLS server name %q, want the host's", single.TLSConfig.ServerName)
				}
			}
			if diff := cmp.Diff(tc.addrs, addrs); diff != "" {
				t.Errorf("addrs (-want +got):\n%s", diff)
			}
			if user != tc.user || pass != tc.pass {
				t.Errorf("credentials %q/%q, want %q/%q", user, pass, tc.user, tc.pass)
			}
			if tls != tc.tls || db != tc.db {
				t.Errorf("TLS %v, db %d; want %v, %d", tls, db, tc.tls, tc.db)
			}
			if tc.pool != 0 && pool != tc.pool {
				t.Errorf("pool size %d, want %d", pool, tc.pool)
			}
			if tc.params == nil {
				tc.params = url.Values{}
			}
			if diff := cmp.Diff(tc.params, params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseKeepsGoRedisParameters(t *testing.T) {
	t.Parallel()
	single, _, _, err := Parse("redis://h:1?dial_timeout=7s&read_timeout=2s&max_retries=-1&client_name=svc")
	if err != nil {
		t.Fatal(err)
	}
	if single.DialTimeout != 7*time.Second || single.ReadTimeout != 2*time.Second || single.MaxRetries != -1 || single.ClientName != "svc" {
		t.Errorf("options %+v", single)
	}
	_, cluster, _, err := Parse("redis+cluster://a:1?max_redirects=5&route_randomly=true")
	if err != nil {
		t.Fatal(err)
	}
	if cluster.MaxRedirects != 5 || !cluster.RouteRandomly {
		t.Errorf("cluster options %+v", cluster)
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"",
		"memory://",
		"127.0.0.1:6379",
		"http://h:1",
		"unix:///tmp/redis.sock",
		"redis://h:port/0",
		"redis://h:1/x",
		"redis://h:1/0/1",
		"redis://h:1?pool_size=%zz",
		"redis://h:1?pool_size=x",
		"redis://h:1?no_such_option=1",
		"redis://h:1?wait_replicas=1",
		"redis://me:a/b@h:1/0",
		"redis://me:a?b@h:1/0",
		"redis://me:a#b@h:1/0",
		"redis://me:a b@h:1/0",
		"redis://me:a%zz@h:1/0",
		"redis+cluster://",
		"redis+cluster://a:1/3",
		"redis+cluster://a:1//",
		"redis+cluster://a,b:2",
		"redis+cluster://a:1,b:port",
		"redis+cluster://a:1,b:0",
		"redis+cluster://a:1,b:65536",
		"redis+cluster://a:1?no_such_option=1",
	} {
		if single, cluster, _, err := Parse(raw); err == nil {
			t.Errorf("Parse(%q) = %+v, %+v; want an error", raw, single, cluster)
		}
	}
}
