package redisurl_test

import (
	"io"
	"strings"
	"testing"

	memredis "github.com/agentsvc/agentsvc/internal/memory/redis"
	"github.com/agentsvc/agentsvc/internal/redisurl"
	sessredis "github.com/agentsvc/agentsvc/internal/sessions/redis"
)

// The user and password of every URL in TestErrorsHideTheUserinfo; each
// piece of a password split by a misplaced '/', '?' or '#' holds the
// password marker too.
const (
	user     = "us3rname"
	password = "s3cr3t"
)

// TestErrorsHideTheUserinfo feeds malformed URLs that hold a user and a
// password to Parse and to the constructors of every store built on it:
// their errors, which the service logs and returns, must name neither.
func TestErrorsHideTheUserinfo(t *testing.T) {
	t.Parallel()
	const u = user + ":" + password
	open := map[string]func(string) (io.Closer, error){
		"redisurl.Parse": func(raw string) (io.Closer, error) {
			_, _, _, err := redisurl.Parse(raw, "wait_replicas", "wait_timeout")
			return io.NopCloser(nil), err
		},
		"memory/redis.New": func(raw string) (io.Closer, error) {
			return memredis.New(raw, memredis.Options{})
		},
		"sessions/redis.New": func(raw string) (io.Closer, error) {
			return sessredis.New(raw, sessredis.Options{})
		},
		"sessions/redis.NewCluster": func(raw string) (io.Closer, error) {
			return sessredis.NewCluster(raw, sessredis.Options{})
		},
	}
	for _, raw := range []string{
		// A bad port, of a node and of cluster seeds.
		"redis://" + u + "@h:port/0",
		"redis+cluster://" + u + "@a:1,b:port",
		"rediss+cluster://" + u + "@a:x",
		"redis+cluster://" + u + "@a,b:2",
		"redis+cluster://" + u + "@",
		"redis://" + u + "@[::1/0",
		// A bad database.
		"redis://" + u + "@h:1/x",
		"redis://" + u + "@h:1/0/1",
		"redis+cluster://" + u + "@a:1/3",
		// A bad query: an escape, a value, an unknown parameter, or a wait
		// parameter that only the session store reads.
		"redis://" + u + "@h:1/0?pool_size=%zz",
		"redis+cluster://" + u + "@a:1?dial_timeout=%zz",
		"redis://" + u + "@h:1/0?pool_size=x",
		"redis://" + u + "@h:1/0?no_such_option=1",
		"redis+cluster://" + u + "@a:1?no_such_option=1",
		"redis://" + u + "@h:1/0?wait_replicas=99",
		"redis+cluster://" + u + "@a:1?wait_timeout=forever",
		"redis://" + u + "@h:1/0?wait_timeout=1h",
		// An unknown or missing scheme.
		"http://" + u + "@h:1",
		"unix://" + u + "@/tmp/redis.sock",
		u + "@h:1",
		"redis:/" + u + "@h:1",
		// A password that is not escaped as it should be.
		"redis://" + user + ":" + password + "/" + password + "@h:1/0",
		"redis://" + user + ":" + password + "?" + password + "@h:1/0",
		"redis://" + user + ":" + password + "#" + password + "@h:1/0",
		"redis://" + user + ":" + password + "%zz@h:1/0",
		"redis://" + user + ":" + password + " x@h:1/0",
		"redis+cluster://" + user + ":" + password + "/" + password + "@a:1,b:2",
		"redis+cluster://" + user + ":" + password + "?" + password + "@a:1,b:2",
	} {
		for name, open := range open {
			c, err := open(raw)
			if err == nil && strings.Contains(raw, "wait_") && !strings.HasPrefix(name, "sessions/") {
				c.Close()
				continue
			}
			if err == nil {
				c.Close()
				t.Errorf("%s(%q) succeeded, want an error", name, raw)
				continue
			}
			if msg := err.Error(); strings.Contains(msg, user) || strings.Contains(msg, password) {
				t.Errorf("%s(%q): %q shows the user or password", name, raw, msg)
			}
		}
	}
}
