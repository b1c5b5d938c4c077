package sessionstest

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// The acceptance load: many sessions written in parallel, plus writers racing
// on one session through handles that go stale.
const (
	ownSessions      = 50
	eventsPerSession = 200
	racingWriters    = 10
	eventsPerWriter  = 20
)

var concurrencyCases = []contractCase{
	{"concurrent_appends_lose_and_duplicate_nothing", func(t *testing.T, svc sessions.Service) {
		ctx := t.Context()
		shared := create(t, svc, "app", "shared-user", "shared", map[string]any{"init": true})
		sharedInitial := structpbCopy(shared.GetState())
		var wg sync.WaitGroup
		own := make([]*v1.Session, ownSessions)
		for g := range own {
			own[g] = create(t, svc, "app", "u1", fmt.Sprintf("own-%02d", g), map[string]any{"g": g})
		}

		// Each goroutine owns a session, and app: and user: keys of its own,
		// so its stored state is checkable against its replay.
		for g, sess := range own {
			wg.Go(func() {
				for i := range eventsPerSession {
					delta := map[string]any{
						"count": i, "last": fmt.Sprintf("%d-%d", g, i), "temp:scratch": i,
						fmt.Sprintf("user:g%02d", g): i, fmt.Sprintf("app:g%02d", g): i,
					}
					if i%50 == 0 {
						delta["nullable"] = nil
					} else {
						delta["nullable"] = i
					}
					ev := event(t, fmt.Sprintf("agent-%d", g), delta, 0)
					ev.Id = fmt.Sprintf("own-%02d-%03d", g, i)
					if err := svc.AppendEvent(ctx, sess, ev); err != nil {
						t.Errorf("session %d, event %d: %v", g, i, err)
						return
					}
				}
			})
		}

		// The racing writers start from handles of the same version, so all
		// but one first append fail as stale; a writer reloads and retries.
		var stale atomic.Int64
		for w := range racingWriters {
			h := get(t, svc, shared)
			wg.Go(func() {
				for i := 0; i < eventsPerWriter; {
					ev := event(t, fmt.Sprintf("writer-%d", w), map[string]any{
						fmt.Sprintf("w%d", w): i, "shared": fmt.Sprintf("%d-%d", w, i),
					}, 0)
					ev.Id = fmt.Sprintf("writer-%d-%03d", w, i)
					err := svc.AppendEvent(ctx, h, ev)
					switch {
					case err == nil:
						i++
					case errors.Is(err, sessions.ErrStale):
						stale.Add(1)
						fresh, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "shared-user", SessionID: "shared"})
						if err != nil {
							t.Errorf("writer %d reload: %v", w, err)
							return
						}
						h = fresh
					default:
						t.Errorf("writer %d, event %d: %v", w, i, err)
						return
					}
				}
			})
		}
		wg.Wait()
		if t.Failed() {
			return
		}

		for g, sess := range own {
			stored := get(t, svc, sess)
			checkEventIDs(t, stored, []string{fmt.Sprintf("own-%02d-", g)}, eventsPerSession)
			CheckReplay(t, mustStruct(t, map[string]any{"g": g}), stored)
			if stored.GetLastUpdateTime() != sess.GetLastUpdateTime() {
				t.Errorf("session %d: stored LastUpdateTime %f, handle %f", g, stored.GetLastUpdateTime(), sess.GetLastUpdateTime())
			}
		}
		stored := get(t, svc, shared)
		prefixes := make([]string, racingWriters)
		for w := range prefixes {
			prefixes[w] = fmt.Sprintf("writer-%d-", w)
		}
		checkEventIDs(t, stored, prefixes, eventsPerWriter)
		CheckReplay(t, sharedInitial, stored)
		if n := stale.Load(); n < racingWriters-1 {
			t.Errorf("%d stale appends, want at least %d", n, racingWriters-1)
		}
		t.Logf("racing writers retried %d stale appends", stale.Load())
	}},
}

// checkEventIDs fails t unless stored holds, for each prefix, exactly the ids
// prefix000 … prefix(n-1) in that order, each once, and nothing else.
func checkEventIDs(t testing.TB, stored *v1.Session, prefixes []string, n int) {
	t.Helper()
	next := make(map[string]int, len(prefixes))
	for _, p := range prefixes {
		next[p] = 0
	}
	seen := make(map[string]bool, len(stored.GetEvents()))
	for _, ev := range stored.GetEvents() {
		id := ev.GetId()
		if seen[id] {
			t.Errorf("session %s: event %s stored twice", stored.GetId(), id)
			continue
		}
		seen[id] = true
		p := id[:len(id)-3]
		i, ok := next[p]
		if !ok || id != fmt.Sprintf("%s%03d", p, i) {
			t.Errorf("session %s: unexpected event %s (next of %q is %d)", stored.GetId(), id, p, i)
			continue
		}
		next[p] = i + 1
	}
	for p, i := range next {
		if i != n {
			t.Errorf("session %s: %d events of %q stored, want %d", stored.GetId(), i, p, n)
		}
	}
}

func structpbCopy(s *structpb.Struct) *structpb.Struct {
	out := &structpb.Struct{Fields: make(map[string]*structpb.Value, len(s.GetFields()))}
	for k, v := range s.GetFields() {
		out.Fields[k] = v
	}
	return out
}
