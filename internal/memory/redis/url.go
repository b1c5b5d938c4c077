package redis

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// The session store's parameters, ignored here; see [New].
var sessionOnlyParams = []string{"wait_replicas", "wait_timeout"}

// newClient makes the client url names, with opts's connection settings.
func newClient(raw string, opts Options) (goredis.UniversalClient, error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, errors.New("parse url: want redis://, rediss://, redis+cluster:// or rediss+cluster://")
	}
	hosts, query, _ := strings.Cut(rest, "?")
	q, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("parse url: %w", err)
	}
	for _, p := range sessionOnlyParams {
		q.Del(p)
	}
	switch scheme {
	case "redis", "rediss":
		o, err := goredis.ParseURL(withQuery(scheme+"://"+hosts, q))
		if err != nil {
			return nil, fmt.Errorf("parse url: %w", withoutURL(err))
		}
		opts.override(&o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.PoolSize, &o.MaxRetries)
		// Managed servers often refuse CLIENT SETINFO, and callers'
		// deadlines and cancellation must reach the socket.
		o.DisableIdentity, o.ContextTimeoutEnabled = true, true
		return goredis.NewClient(o), nil
	case "redis+cluster", "rediss+cluster":
		o, err := clusterOptions(strings.TrimSuffix(scheme, "+cluster"), hosts, q)
		if err != nil {
			return nil, fmt.Errorf("parse url: %w", withoutURL(err))
		}
		opts.override(&o.DialTimeout, &o.ReadTimeout, &o.WriteTimeout, &o.PoolSize, &o.MaxRetries)
		o.DisableIdentity, o.ContextTimeoutEnabled = true, true
		return goredis.NewClusterClient(o), nil
	}
	return nil, fmt.Errorf("parse url: scheme %q: want redis, rediss, redis+cluster or rediss+cluster", scheme)
}

// clusterOptions reads the seed nodes of a cluster URL, [user:password@]
// host:port,host:port,...[/0], into go-redis's cluster options, whose URL
// names the first seed and takes the others as addr parameters.
func clusterOptions(scheme, hosts string, q url.Values) (*goredis.ClusterOptions, error) {
	var userinfo string
	if at := strings.LastIndex(hosts, "@"); at >= 0 {
		userinfo, hosts = hosts[:at+1], hosts[at+1:]
	}
	hosts = strings.TrimSuffix(hosts, "/")
	if h, db, ok := strings.Cut(hosts, "/"); ok {
		if db != "0" {
			return nil, errors.New("a Redis Cluster has only database 0")
		}
		hosts = h
	}
	seeds := strings.Split(hosts, ",")
	for _, seed := range seeds {
		if _, port, err := net.SplitHostPort(seed); err != nil || !isPort(port) {
			return nil, fmt.Errorf("cluster node %q: want host:port", seed)
		}
	}
	for _, seed := range seeds[1:] {
		q.Add("addr", seed)
	}
	o, err := goredis.ParseClusterURL(withQuery(scheme+"://"+userinfo+seeds[0], q))
	if err != nil {
		return nil, err
	}
	if o.TLSConfig != nil {
		// Check each node's certificate against the host it is dialled
		// at, not against the first seed's.
		o.TLSConfig.ServerName = ""
	}
	return o, nil
}

// withoutURL drops the URL, which may hold a password, from a parse error.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func isPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n > 0 && n < 1<<16
}

func withQuery(u string, q url.Values) string {
	if len(q) == 0 {
		return u
	}
	return u + "?" + q.Encode()
}

// override sets the connection settings opts gives (those that are not zero)
// over a client's parsed from its URL.
func (opts Options) override(dial, read, write *time.Duration, pool, retries *int) {
	if opts.DialTimeout > 0 {
		*dial = opts.DialTimeout
	}
	if opts.ReadTimeout > 0 {
		*read = opts.ReadTimeout
	}
	if opts.WriteTimeout > 0 {
		*write = opts.WriteTimeout
	}
	if opts.PoolSize > 0 {
		*pool = opts.PoolSize
	}
	if opts.MaxRetries != 0 {
		*retries = opts.MaxRetries
	}
}
