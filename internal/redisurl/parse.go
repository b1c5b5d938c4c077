// Package redisurl reads the URLs that name a Redis server or a Redis
// Cluster into go-redis's client options, for the stores that keep their
// data in Redis:
//
//	redis://[user:password@]host:port[/db]
//	rediss://[user:password@]host:port[/db]                          (TLS)
//	redis+cluster://[user:password@]host:port,host:port,...[/0]
//	rediss+cluster://[user:password@]host:port,host:port,...[/0]     (TLS)
//
// each with go-redis's optional query parameters (dial_timeout, pool_size,
// ...). Its errors never repeat the user or the password, so that callers
// may log them and return them as they are.
package redisurl

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	goredis "github.com/redis/go-redis/v9"
)

var (
	errScheme   = errors.New("want redis://, rediss://, redis+cluster:// or rediss+cluster://")
	errUserinfo = errors.New("invalid user or password: escape reserved characters in them as %XX")
	// A '/', '?' or '#' in a password that is not escaped ends the host
	// early, so the password would land in the host, path or query, and
	// so in go-redis's errors about them.
	errMisplacedUserinfo = errors.New("'@' after the host: escape '/', '?', '#' and '@' in the user and password as %XX")
)

// Parse reads raw into the options of a client of one Redis node (redis://,
// rediss://) or of a Redis Cluster (redis+cluster://, rediss+cluster://):
// on success exactly one of single and cluster is non-nil. Parse contacts
// no server.
//
// The query parameters named in take, which go-redis would refuse as
// unknown, are removed before go-redis reads the others and returned in
// params (empty when raw has none of them). A cluster's hosts are seeds,
// each host:port with a port from 1 to 65535; its database can only be 0;
// with TLS, each node's certificate is checked against the host it is
// dialled at rather than against the first seed's.
//
// The error never holds the user or the password.
func Parse(raw string, take ...string) (single *goredis.Options, cluster *goredis.ClusterOptions, params url.Values, err error) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return nil, nil, nil, errScheme
	}
	rest, query, _ := strings.Cut(rest, "?")
	hosts, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		hosts, path = rest[:i], rest[i:]
	}
	var user *url.Userinfo
	if at := strings.LastIndexByte(hosts, '@'); at >= 0 {
		if user, err = parseUserinfo(hosts[:at]); err != nil {
			return nil, nil, nil, err
		}
		hosts = hosts[at+1:]
	}
	// go-redis never sees the user and password: its errors may repeat
	// the URL it is given.
	if strings.Contains(path, "@") || strings.Contains(query, "@") {
		return nil, nil, nil, errMisplacedUserinfo
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return nil, nil, nil, err
	}
	params = url.Values{}
	for _, name := range take {
		if vs, ok := q[name]; ok {
			params[name] = vs
			delete(q, name)
		}
	}
	username, password := credentials(user)
	switch scheme {
	case "redis", "rediss":
		o, err := goredis.ParseURL(withQuery(scheme+"://"+hosts+path, q))
		if err != nil {
			return nil, nil, nil, withoutURL(err)
		}
		o.Username, o.Password = username, password
		return o, nil, params, nil
	case "redis+cluster", "rediss+cluster":
		o, err := parseCluster(strings.TrimSuffix(scheme, "+cluster"), hosts, path, q)
		if err != nil {
			return nil, nil, nil, err
		}
		o.Username, o.Password = username, password
		return nil, o, params, nil
	}
	return nil, nil, nil, errScheme
}

// parseCluster reads the seeds of a cluster URL, host:port,host:port,...,
// into go-redis's cluster options, whose URL names the first seed and takes
// the others as addr parameters.
func parseCluster(scheme, hosts, path string, q url.Values) (*goredis.ClusterOptions, error) {
	if db := strings.TrimSuffix(path, "/"); db != "" && db != "/0" {
		return nil, errors.New("a Redis Cluster has only database 0")
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
	o, err := goredis.ParseClusterURL(withQuery(scheme+"://"+seeds[0], q))
	if err != nil {
		return nil, withoutURL(err)
	}
	if o.TLSConfig != nil {
		// Check each node's certificate against the host it is dialled
		// at, not against the first seed's.
		o.TLSConfig.ServerName = ""
	}
	return o, nil
}

// parseUserinfo reads user[:password] as net/url does, with an error that
// does not repeat it.
func parseUserinfo(s string) (*url.Userinfo, error) {
	// A '#' would end the placeholder URL's host early.
	if strings.Contains(s, "#") {
		return nil, errUserinfo
	}
	u, err := url.Parse("redis://" + s + "@host")
	if err != nil {
		return nil, errUserinfo
	}
	return u.User, nil
}

// credentials are the user and password of u, empty when u is nil.
func credentials(u *url.Userinfo) (user, password string) {
	if u == nil {
		return "", ""
	}
	password, _ = u.Password()
	return u.Username(), password
}

// withoutURL drops the URL from go-redis's parse errors: it holds no
// password, but repeats what the caller already knows.
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

// withQuery adds q, encoded, to u.
func withQuery(u string, q url.Values) string {
	if len(q) == 0 {
		return u
	}
	return u + "?" + q.Encode()
}
