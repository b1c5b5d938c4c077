package llmagent_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
	"github.com/agentsvc/agentsvc/internal/sessions/redis"
)

// tailStore reads the tails of a memory store as a store across a network
// does, the session's first event telling its incarnations apart.
type tailStore struct {
	sessions.Service
	tails, wholes atomic.Int64
}

func (s *tailStore) GetTail(ctx context.Context, req sessions.GetRequest, held sessions.Held) (*v1.Session, sessions.Held, bool, error) {
	sess, err := s.Get(ctx, req)
	if err != nil {
		return nil, sessions.Held{}, false, err
	}
	inc := ""
	if len(sess.Events) > 0 {
		inc = sess.Events[0].Id
	}
	next := sessions.Held{Events: len(sess.Events), Incarnation: inc}
	if inc == "" || inc != held.Incarnation || held.Events > len(sess.Events) {
		s.wholes.Add(1)
		return sess, next, false, nil
	}
	s.tails.Add(1)
	sess.Events = sess.Events[held.Events:]
	return sess, next, true, nil
}

// replicas are two runners of one app on one store, as two replicas of a
// deployment, with the model their agent calls.
type replicas struct {
	a, b  *runtime.Runner
	store sessions.Service
	model *scripted.Model
}

func newReplicas(t *testing.T, store sessions.Service, history int) *replicas {
	t.Helper()
	tree, err := runtime.NewTree(newAgent(t, llmagent.Config{Instruction: "Answer."}))
	if err != nil {
		t.Fatal(err)
	}
	m := scripted.New(modelName)
	for i := range 20 {
		m.Enqueue(et.Text(fmt.Sprintf("answer %d", i)))
	}
	res := scripted.NewResolver()
	res.Add(m)
	app := &runtime.App{Name: et.AppName, Tree: tree}
	return &replicas{
		a:     &runtime.Runner{App: app, Sessions: store, Models: res, HistorySessions: history},
		b:     &runtime.Runner{App: app, Sessions: store, Models: res, HistorySessions: history},
		store: store, model: m,
	}
}

// run runs text on sid through r and returns the invocation id.
func (rs *replicas) run(t *testing.T, r *runtime.Runner, sid, text string) string {
	t.Helper()
	id := ""
	req := runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: et.UserText(text),
		RunConfig: runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls}}
	for ev, err := range r.Run(t.Context(), req) {
		if err != nil {
			t.Fatalf("run %q: %v", text, err)
		}
		id = ev.InvocationId
	}
	return id
}

// TestTailReadsSeeWhatWholeReadsSee runs the same turns, rewind and
// re-creation of a session on two replicas that keep the session's events
// and read only the tails, and on two that read the session whole each
// time; the model must get the same contents on every turn: a replica whose
// kept events are stale (the other replica wrote since) reads what it
// lacks, and one whose session was rewound or created again does not serve
// the events it kept.
func TestTailReadsSeeWhatWholeReadsSee(t *testing.T) {
	t.Parallel()
	fake := &tailStore{Service: memory.New()}
	stores := map[string]sessions.Service{"memory": fake}
	if url := os.Getenv("AGENTSVC_TEST_REDIS"); url != "" {
		prefix := make([]byte, 6)
		_, _ = rand.Read(prefix)
		r, err := redis.New(url, redis.Options{KeyPrefix: "tail-" + hex.EncodeToString(prefix), TTL: 10 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = r.Close() })
		stores["redis"] = r
	}
	for name, store := range stores {
		t.Run(name, func(t *testing.T) {
			tails := newReplicas(t, store, 0)
			wholes := newReplicas(t, memory.New(), -1)
			for _, rs := range []*replicas{tails, wholes} {
				ctx := t.Context()
				create := func() {
					if _, err := rs.store.Create(ctx, sessions.CreateRequest{AppName: et.AppName, UserID: et.UserID, SessionID: "s1"}); err != nil {
						t.Fatal(err)
					}
				}
				create()
				rs.run(t, rs.a, "s1", "q1")
				second := rs.run(t, rs.a, "s1", "q2")
				rs.run(t, rs.b, "s1", "q3")
				rs.run(t, rs.a, "s1", "q4") // a's kept events lack q3
				rs.run(t, rs.b, "s1", "q5")
				if _, err := rs.a.Rewind(ctx, et.UserID, "s1", second); err != nil {
					t.Fatal(err)
				}
				rs.run(t, rs.b, "s1", "q6")
				rs.run(t, rs.a, "s1", "q7")
				if err := rs.store.Delete(ctx, et.AppName, et.UserID, "s1"); err != nil {
					t.Fatal(err)
				}
				create()
				rs.run(t, rs.a, "s1", "q8")
				rs.run(t, rs.a, "s1", "q9")
			}
			got, want := tails.model.Requests(), wholes.model.Requests()
			if len(got) != len(want) {
				t.Fatalf("%d model requests, want %d", len(got), len(want))
			}
			for i := range want {
				if diff := cmp.Diff(et.Contents(want[i].Contents), et.Contents(got[i].Contents)); diff != "" {
					t.Errorf("request %d contents (-whole reads +tail reads):\n%s", i, diff)
				}
			}
		})
	}
	if fake.tails.Load() == 0 || fake.wholes.Load() == 0 {
		t.Errorf("the runners read %d tails and %d whole sessions, want some of both", fake.tails.Load(), fake.wholes.Load())
	}
}
