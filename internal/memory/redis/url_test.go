package redis

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	goredis "github.com/redis/go-redis/v9"
)

func TestNewParsesURLs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url     string
		cluster bool
		addrs   []string
		user    string
		tls     bool
		db      int
		pool    int
	}{
		{url: "redis://127.0.0.1:6379/0", addrs: []string{"127.0.0.1:6379"}},
		{url: "rediss://me:p%40ss@h:6380/2?pool_size=7", addrs: []string{"h:6380"}, user: "me", tls: true, db: 2, pool: 7},
		// The session store's parameters are accepted and ignored.
		{url: "redis://h:1/0?wait_replicas=1&wait_timeout=100ms", addrs: []string{"h:1"}},
		{url: "redis+cluster://10.0.0.1:7000,10.0.0.2:7001,h3:7002", cluster: true, addrs: []string{"10.0.0.1:7000", "10.0.0.2:7001", "h3:7002"}},
		{url: "rediss+cluster://me:p%40ss@a:1,b:2/?pool_size=7&wait_replicas=2", cluster: true, addrs: []string{"a:1", "b:2"}, user: "me", tls: true, pool: 7},
		{url: "redis+cluster://a:1/0", cluster: true, addrs: []string{"a:1"}},
	} {
		t.Run(tc.url, func(t *testing.T) {
			t.Parallel()
			svc, err := New(tc.url, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer svc.Close()
			var (
				addrs          []string
				user, password string
				tls            bool
				db, pool       int
			)
			switch c := svc.client.(type) {
			case *goredis.ClusterClient:
				o := c.Options()
				addrs, user, password, tls, pool = o.Addrs, o.Username, o.Password, o.TLSConfig != nil, o.PoolSize
				if tls && o.TLSConfig.ServerName != "" {
					t.Errorf("TLS server name %q for every node, want each node's own host", o.TLSConfig.ServerName)
				}
			case *goredis.Client:
				o := c.Options()
				addrs, user, password, tls, db, pool = []string{o.Addr}, o.Username, o.Password, o.TLSConfig != nil, o.DB, o.PoolSize
			}
			if _, isCluster := svc.client.(*goredis.ClusterClient); isCluster != tc.cluster {
				t.Errorf("cluster client %v, want %v", isCluster, tc.cluster)
			}
			if diff := cmp.Diff(tc.addrs, addrs); diff != "" {
				t.Errorf("addrs (-want +got):\n%s", diff)
			}
			if user != tc.user || (tc.user != "" && password != "p@ss") {
				t.Errorf("credentials %q/%q", user, password)
			}
			if tls != tc.tls || db != tc.db {
				t.Errorf("TLS %v, db %d; want %v, %d", tls, db, tc.tls, tc.db)
			}
			if tc.pool != 0 && pool != tc.pool {
				t.Errorf("pool size %d, want %d", pool, tc.pool)
			}
		})
	}
}

func TestNewRefuses(t *testing.T) {
	t.Parallel()
	for _, url := range []string{
		"memory://",
		"127.0.0.1:6379",
		"http://h:1",
		"redis+cluster://a:1/3",
		"redis+cluster://a,b:2",
		"redis+cluster://a:1,b:port",
		"redis://h:1?no_such_option=1",
		"redis+cluster://a:1?no_such_option=1",
	} {
		if svc, err := New(url, Options{}); err == nil {
			svc.Close()
			t.Errorf("New(%q) succeeded", url)
		}
	}
	if svc, err := New("redis://h:1", Options{KeyPrefix: "as{x}"}); err == nil {
		svc.Close()
		t.Error("a key prefix with braces accepted")
	}
}

func TestOptionsOverrideTheURL(t *testing.T) {
	t.Parallel()
	// go-redis stores "no retries" (-1) as 0.
	svc, err := New("redis://h:1?dial_timeout=1s&pool_size=3", Options{DialTimeout: 2 * time.Second, ReadTimeout: time.Second, PoolSize: 5, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	o := svc.client.(*goredis.Client).Options()
	if o.DialTimeout != 2*time.Second || o.ReadTimeout != time.Second || o.PoolSize != 5 || o.MaxRetries != 0 || !o.ContextTimeoutEnabled {
		t.Errorf("options %+v", o)
	}
}

func TestParseErrorsHideThePassword(t *testing.T) {
	t.Parallel()
	for _, url := range []string{"redis://me:secret@h:port/0", "redis+cluster://me:secret@a:1,b:port", "rediss+cluster://me:secret@a:x"} {
		svc, err := New(url, Options{})
		if err == nil {
			svc.Close()
			t.Errorf("New(%q) succeeded", url)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("New(%q): %v shows the password", url, err)
		}
	}
}
