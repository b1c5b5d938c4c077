package llmagent_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/redisurl"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/redis"
)

// sentCommands is a go-redis hook that records what a client sends: a
// command sent alone by its name, a pipeline as pipeline(names). The
// connection's handshake and a cluster's look-ups of its slot map are left
// out.
type sentCommands struct {
	mu   sync.Mutex
	sent []string
}

func (s *sentCommands) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (s *sentCommands) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		if name := cmd.Name(); name != "hello" && name != "cluster" {
			s.record(name)
		}
		return next(ctx, cmd)
	}
}

func (s *sentCommands) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		names := make([]string, len(cmds))
		for i, c := range cmds {
			names[i] = c.Name()
		}
		s.record("pipeline(" + strings.Join(names, ",") + ")")
		return next(ctx, cmds)
	}
}

func (s *sentCommands) record(name string) {
	s.mu.Lock()
	s.sent = append(s.sent, name)
	s.mu.Unlock()
}

// reset returns what was sent since the last reset.
func (s *sentCommands) reset() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	sent := s.sent
	s.sent = nil
	return sent
}

// countedRedis returns a store on the Redis (or Redis Cluster) at url whose
// client records what it sends.
func countedRedis(t *testing.T, url string) (*redis.Service, *sentCommands) {
	t.Helper()
	prefix := make([]byte, 6)
	_, _ = rand.Read(prefix)
	opts := redis.Options{KeyPrefix: "trips-" + hex.EncodeToString(prefix), TTL: 10 * time.Minute}
	sent := &sentCommands{}
	single, cluster, _, err := redisurl.Parse(url, "wait_replicas", "wait_timeout")
	if err != nil {
		t.Fatal(err)
	}
	var svc *redis.Service
	// As the store's own constructor does: no CLIENT SETINFO on a new
	// connection.
	if cluster != nil {
		cluster.DisableIdentity, cluster.ContextTimeoutEnabled = true, true
		client := goredis.NewClusterClient(cluster)
		client.OnNewNode(func(node *goredis.Client) { node.AddHook(sent) })
		svc = redis.NewFromClusterClient(client, opts)
	} else {
		single.DisableIdentity, single.ContextTimeoutEnabled = true, true
		client := goredis.NewClient(single)
		client.AddHook(sent)
		svc = redis.NewFromClient(client, opts)
	}
	t.Cleanup(func() { _ = svc.Close() })
	return svc, sent
}

// TestRedisRoundTripsPerInvocation counts what one invocation sends to
// Redis, so that the count cannot grow unnoticed: one read of the session
// (on a cluster, with app state read alongside from its own slot) and one
// script per stored event, whose wait for a replica (on a cluster) goes in
// the same round trip. A session the runner read before sends only the
// events stored since, in the same one read.
func TestRedisRoundTripsPerInvocation(t *testing.T) {
	t.Parallel()
	type target struct {
		url     string
		cluster bool
	}
	targets := map[string]target{}
	if url := os.Getenv("AGENTSVC_TEST_REDIS"); url != "" {
		targets["single"] = target{url, false}
	}
	if url := os.Getenv("AGENTSVC_TEST_REDIS_CLUSTER"); url != "" {
		targets["cluster"] = target{url, true}
	}
	if len(targets) == 0 {
		t.Skip("neither AGENTSVC_TEST_REDIS nor AGENTSVC_TEST_REDIS_CLUSTER is set; run under scripts/with-redis.sh")
	}
	for name, tg := range targets {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			store, sent := countedRedis(t, tg.url)
			agent := newAgent(t, llmagent.Config{Instruction: "Answer.", Tools: []runtime.Tool{echoTool(t, "echo")}})
			tree, err := runtime.NewTree(agent)
			if err != nil {
				t.Fatal(err)
			}
			m := scripted.New(modelName)
			res := scripted.NewResolver()
			res.Add(m)
			runner := &runtime.Runner{App: &runtime.App{Name: et.AppName, Tree: tree}, Sessions: store, Models: res}
			ctx := t.Context()
			read, write := "evalsha", "evalsha"
			if tg.cluster {
				read, write = "evalsha hgetall", "pipeline(evalsha,wait)"
			}
			steps := func(n int) []string {
				want := []string{read, write} // the session, the user's message
				for range 2*n - 1 {           // a call and its response per extra step, the answer
					want = append(want, write)
				}
				return want
			}
			// A first invocation loads the scripts on the server.
			s, err := store.Create(ctx, sessions.CreateRequest{AppName: et.AppName, UserID: et.UserID})
			if err != nil {
				t.Fatal(err)
			}
			m.Enqueue(et.Text("zero"))
			for _, err := range runner.Run(ctx, runtime.RunRequest{UserID: et.UserID, SessionID: s.Id, NewMessage: et.UserText("q"),
				RunConfig: runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls}}) {
				if err != nil {
					t.Fatal(err)
				}
			}
			sid := ""
			for i, tc := range []struct {
				name    string
				answers []*v1.LlmResponse
			}{
				{"fresh,one-step", []*v1.LlmResponse{et.Text("one")}},
				{"read-before,one-step", []*v1.LlmResponse{et.Text("two")}},
				{"read-before,two-step", []*v1.LlmResponse{et.Call("echo", `{"x":1}`), et.Text("three")}},
				{"fresh,two-step", []*v1.LlmResponse{et.Call("echo", `{"x":2}`), et.Text("four")}},
			} {
				if strings.HasPrefix(tc.name, "fresh") {
					s, err := store.Create(ctx, sessions.CreateRequest{AppName: et.AppName, UserID: et.UserID})
					if err != nil {
						t.Fatal(err)
					}
					sid = s.Id
				}
				m.Enqueue(tc.answers...)
				sent.reset()
				req := runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: et.UserText(fmt.Sprint("q", i)),
					RunConfig: runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls}}
				for _, err := range runner.Run(ctx, req) {
					if err != nil {
						t.Fatal(err)
					}
				}
				got := sent.reset()
				if tg.cluster {
					got = sortPairs(got)
				}
				want := steps(len(tc.answers))
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%s: sent %d round trips %q, want %d %q", tc.name, len(got), got, len(want), want)
				}
			}
		})
	}
}

// sortPairs joins the first two commands, sent concurrently on a cluster,
// in a fixed order.
func sortPairs(sent []string) []string {
	if len(sent) < 2 {
		return sent
	}
	a, b := sent[0], sent[1]
	if a > b {
		a, b = b, a
	}
	return append([]string{a + " " + b}, sent[2:]...)
}
