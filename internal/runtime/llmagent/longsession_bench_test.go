package llmagent_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"iter"
	"os"
	"strings"
	"testing"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/redis"
)

// constModel answers every request with the same text.
type constModel struct{ name, text string }

func (m constModel) Name() string { return m.name }

func (m constModel) GenerateContent(context.Context, *v1.LlmRequest, bool) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		yield(et.Text(m.text), nil)
	}
}

// constModels resolves the agent's model and the summarizer's.
type constModels map[string]models.Model

func (r constModels) Model(_ context.Context, name string) (models.Model, error) {
	if m, ok := r[name]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("no model %q", name)
}

// longSessionEvents is the history of the long sessions of
// BenchmarkTurnRedis.
const longSessionEvents = 10_000

// rollEvery is how many turns a rolling summary comes after.
const rollEvery = 10

// rollingSummary stores in sid a summary whose range runs from first to
// now, as ADK's token-threshold compaction writes it: each summary starts
// where the one before started, and supersedes it.
func rollingSummary(ctx context.Context, b *testing.B, store sessions.Service, sid string, first float64) {
	sess, err := store.Get(ctx, sessions.GetRequest{AppName: et.AppName, UserID: et.UserID, SessionID: sid,
		Select: sessions.SelectNone})
	if err != nil {
		b.Fatal(err)
	}
	ev := &v1.Event{InvocationId: runtime.NewInvocationID(), Author: "user",
		Actions: &v1.EventActions{Compaction: &v1.EventCompaction{StartTimestamp: first, EndTimestamp: runtime.Now(),
			CompactedContent: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "The user asked questions and got short answers."}}}}}}
	if err := store.AppendEvent(ctx, sess, ev); err != nil {
		b.Fatal(err)
	}
}

// rollingHistory stores a history of n events in sid: turns of a question
// and an answer, a rolling summary after every rollEvery turns, the last
// summary last. It returns the first event's timestamp.
func rollingHistory(ctx context.Context, b *testing.B, store sessions.Service, sid string, n int) float64 {
	b.Helper()
	sess, err := store.Get(ctx, sessions.GetRequest{AppName: et.AppName, UserID: et.UserID, SessionID: sid})
	if err != nil {
		b.Fatal(err)
	}
	const start = 1_700_000_000.0
	ts, stored := start, 0
	add := func(ev *v1.Event) {
		ts += 0.001
		ev.Timestamp = ts
		if err := store.AppendEvent(ctx, sess, ev); err != nil {
			b.Fatal(err)
		}
		sess.Events = nil
		stored++
	}
	// The last event is a summary.
	for turn := 0; stored < n-1; turn++ {
		inv := fmt.Sprintf("e-%d", turn)
		add(&v1.Event{InvocationId: inv, Author: "user", Content: et.UserText(fmt.Sprintf("question %d", turn))})
		if stored < n-1 {
			add(&v1.Event{InvocationId: inv, Author: "root_agent", Content: et.Text("An answer of a few words.").Content})
		}
		if turn%rollEvery == rollEvery-1 && stored < n-1 {
			rollingSummary(ctx, b, store, sid, start+0.001)
			stored++
			if sess, err = store.Get(ctx, sessions.GetRequest{AppName: et.AppName, UserID: et.UserID, SessionID: sid,
				Select: sessions.SelectNone}); err != nil {
				b.Fatal(err)
			}
		}
	}
	rollingSummary(ctx, b, store, sid, start+0.001)
	return start + 0.001
}

// plainHistory stores a history of n events in sid: turns of a question
// and an answer, without summaries.
func plainHistory(ctx context.Context, b *testing.B, store sessions.Service, sid string, n int) {
	b.Helper()
	sess, err := store.Get(ctx, sessions.GetRequest{AppName: et.AppName, UserID: et.UserID, SessionID: sid})
	if err != nil {
		b.Fatal(err)
	}
	ts := 1_700_000_000.0
	for i := range n {
		ts += 0.001
		ev := &v1.Event{InvocationId: fmt.Sprintf("e-%d", i/2), Author: "user", Timestamp: ts,
			Content: et.UserText(fmt.Sprintf("question %d", i/2))}
		if i%2 == 1 {
			ev.Author, ev.Content = "root_agent", et.Text("An answer of a few words.").Content
		}
		if err := store.AppendEvent(ctx, sess, ev); err != nil {
			b.Fatal(err)
		}
		sess.Events = nil
	}
}

// BenchmarkTurnRedis measures one turn (the user's message, one model call
// on a model answering at once, the answer; the session read and both
// events written to Redis, the app's compaction check) of an app with event
// compaction:
//
//   - session=fresh,create=untimed: a session without events, created
//     for the turn outside the timing;
//   - session=long,summaries=rolling,summary_call=untimed: a session of 10,000 events with a
//     summary after every ten turns covering the history from its first
//     event, as ADK's token-threshold compaction writes them (the
//     benchmark writes one after every tenth timed turn too, its model
//     call left out; the app's own sliding window, every 1,000,000
//     invocations, never falls due), read as the runner reads it (the
//     compacted selection); with num_recent_events=50 read by ADK's
//     get_session_config instead, with read=whole read whole;
//   - session=long,compaction=none: a session of 10,000 events of plain
//     turns of an app without event compaction, the runner with its
//     default settings, its history caches warm (a turn ran on the
//     session before the timing, as on a replica that served it before);
//     with history=cold, a runner without history caches, as after a
//     restart or on a replica that never served the session;
//   - session=long,summaries=sliding: a session of 10,000 events the app
//     produced itself with a sliding window of ten invocations and an
//     overlap of one, whose 476 summaries all stay in every model request
//     (in ADK too); the app keeps compacting every tenth timed turn.
//
// The long sessions grow by a turn per iteration. Run it under
// scripts/with-redis.sh.
func BenchmarkTurnRedis(b *testing.B) {
	url := os.Getenv("AGENTSVC_TEST_REDIS")
	if url == "" {
		b.Skip("AGENTSVC_TEST_REDIS is not set; run under scripts/with-redis.sh")
	}
	for _, variant := range []string{"fresh,create=untimed", "long,summaries=rolling,summary_call=untimed",
		"long,summaries=rolling,summary_call=untimed,num_recent_events=50",
		"long,summaries=rolling,summary_call=untimed,read=whole", "long,summaries=sliding",
		"long,compaction=none", "long,compaction=none,history=cold"} {
		b.Run("session="+variant, func(b *testing.B) {
			prefix := make([]byte, 6)
			_, _ = rand.Read(prefix)
			store, err := redis.New(url, redis.Options{KeyPrefix: "bench-" + hex.EncodeToString(prefix), TTL: 10 * time.Minute,
				Limits: sessions.Limits{MaxEvents: 1 << 20, MaxBytes: 1 << 30}})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { _ = store.Close() })
			agent, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: modelName, Instruction: "Answer."})
			if err != nil {
				b.Fatal(err)
			}
			tree, err := runtime.NewTree(agent)
			if err != nil {
				b.Fatal(err)
			}
			sliding := strings.Contains(variant, "sliding")
			interval := 1_000_000
			if sliding {
				interval = 10
			}
			plain := strings.Contains(variant, "compaction=none")
			runner := &runtime.Runner{
				App: &runtime.App{Name: et.AppName, Tree: tree,
					Compaction: &compaction.Config{Interval: interval, Overlap: 1, Model: "summarizer"}},
				Sessions: store,
				Models: constModels{modelName: constModel{modelName, "An answer of a few words."},
					"summarizer": constModel{"summarizer", "The user asked questions and got short answers."}},
			}
			if plain {
				runner.App.Compaction = nil
			}
			if strings.Contains(variant, "history=cold") {
				runner.HistorySessions = -1
			}
			ctx := b.Context()
			newSession := func() string {
				s, err := store.Create(ctx, sessions.CreateRequest{AppName: et.AppName, UserID: et.UserID})
				if err != nil {
					b.Fatal(err)
				}
				return s.Id
			}
			turn := func(sid string, i int, rc runtime.RunConfig) {
				req := runtime.RunRequest{UserID: et.UserID, SessionID: sid, RunConfig: rc,
					NewMessage: et.UserText(fmt.Sprintf("question %d", i))}
				for _, err := range runner.Run(ctx, req) {
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			rc := runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls}
			sid, first := "", 0.0
			if strings.HasPrefix(variant, "long") {
				sid = newSession()
				switch {
				case plain:
					plainHistory(ctx, b, store, sid, longSessionEvents)
				case sliding:
					// A turn stores two events, and every tenth a summary.
					for i := 0; 2*i+i/10 < longSessionEvents; i++ {
						turn(sid, i, rc)
					}
				default:
					first = rollingHistory(ctx, b, store, sid, longSessionEvents)
				}
				s, err := store.Get(ctx, sessions.GetRequest{AppName: et.AppName, UserID: et.UserID, SessionID: sid})
				if err != nil {
					b.Fatal(err)
				}
				summaries := 0
				for _, ev := range s.Events {
					if ev.GetActions().GetCompaction() != nil {
						summaries++
					}
				}
				if len(s.Events) != longSessionEvents || summaries == 0 && !plain {
					b.Fatalf("long session holds %d events, %d summaries", len(s.Events), summaries)
				}
				b.Logf("long session: %d events, %d summaries", len(s.Events), summaries)
			}
			if strings.HasSuffix(variant, "num_recent_events=50") {
				n := 50
				rc.GetSessionConfig = &runtime.GetSessionConfig{NumRecentEvents: &n}
			}
			if strings.HasSuffix(variant, "read=whole") {
				runner.Sessions = &loads{Service: store, whole: true}
			}
			i := 0
			if plain {
				// The turn a replica serves first on a session.
				turn(sid, i, rc)
				i++
			}
			b.ReportAllocs()
			for b.Loop() {
				if sid == "" || strings.HasPrefix(variant, "fresh") {
					b.StopTimer()
					sid = newSession()
					b.StartTimer()
				}
				turn(sid, i, rc)
				i++
				if first != 0 && i%rollEvery == 0 {
					rollingSummary(ctx, b, store, sid, first)
				}
			}
		})
	}
}
