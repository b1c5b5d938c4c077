package llmagent_test

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// The headline benchmarks measure whole turns as a deployment runs them: the
// runner with its default settings over the in-memory session store, the
// user's event and every event of the turn persisted through it, on the
// scripted model (recording off). Their names and scenarios match the
// benchmarks of the same names written against adk-go, so the two compare
// side by side.

// headlineModel is the model name of the headline agent.
const headlineModel = "gemini-2.5-flash"

// headline is a runner over the memory store for the headline agent: the
// root_agent LLM agent told to use the echo tool.
type headline struct {
	h     *et.Harness
	model *scripted.Model
}

func newHeadline(b *testing.B) *headline {
	b.Helper()
	agent, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: headlineModel, Instruction: "Use the echo tool.",
		Tools: []runtime.Tool{echoTool(b, "echo")}})
	if err != nil {
		b.Fatal(err)
	}
	h := et.New(b, agent)
	model := scripted.New(headlineModel)
	model.SetRecording(false)
	h.Models.Add(model)
	return &headline{h: h, model: model}
}

// newSession creates an empty session through the store.
func (hl *headline) newSession(ctx context.Context, b *testing.B) string {
	s, err := hl.h.Sessions.Create(ctx, sessions.CreateRequest{AppName: et.AppName, UserID: et.UserID})
	if err != nil {
		b.Fatal(err)
	}
	return s.Id
}

// turn runs the user's "hi" on the session, the model answering with
// responses, and checks the number of events the agent yields.
func (hl *headline) turn(ctx context.Context, b *testing.B, sid string, events int, responses ...*v1.LlmResponse) {
	hl.model.Enqueue(responses...)
	req := runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: et.UserText("hi"),
		RunConfig: runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls}}
	n := 0
	for _, err := range hl.h.Runner.Run(ctx, req) {
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	if n != events {
		b.Fatalf("events = %d, want %d", n, events)
	}
}

// twoStep runs the two-step turn: the model calls echo {"x":1}, the tool
// answers {"echo": {"x":1}}, the model answers "done".
func (hl *headline) twoStep(ctx context.Context, b *testing.B, sid string) {
	// A new call each turn: the engine gives the call its id.
	call := et.Calls(&v1.FunctionCall{Name: "echo",
		Args: &structpb.Struct{Fields: map[string]*structpb.Value{"x": structpb.NewNumberValue(1)}}})
	hl.turn(ctx, b, sid, 3, call, et.Text("done"))
}

// BenchmarkHeadlineOneStepTurn measures a text turn on a new session: the
// session's creation through the store, the user's "hi", one model call
// answering "done".
func BenchmarkHeadlineOneStepTurn(b *testing.B) {
	hl := newHeadline(b)
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		hl.turn(ctx, b, hl.newSession(ctx, b), 1, et.Text("done"))
	}
}

// BenchmarkHeadlineTwoStepTurn measures a tool turn on a new session: the
// session's creation through the store, the user's "hi", the model's call of
// the echo tool, the tool's answer and the model's "done" (three events from
// the agent).
func BenchmarkHeadlineTwoStepTurn(b *testing.B) {
	hl := newHeadline(b)
	ctx := b.Context()
	b.ReportAllocs()
	for b.Loop() {
		hl.twoStep(ctx, b, hl.newSession(ctx, b))
	}
}

// BenchmarkHeadlineTwoStepTurnPriorEvents measures the two-step turn of
// BenchmarkHeadlineTwoStepTurn on a session already holding prior events
// (cycles of a user's question, the echo call, its response and the
// model's answer), with the runner's history cache off (HistorySessions
// -1), so that every turn reads and builds the whole history, as the first
// turn after a restart does. The store has no limits, so that a session
// may grow past 10,000 events. Each timed turn gets a session of its own,
// created and filled through the store with the timer stopped, and deleted
// after the turn with the timer stopped, so every turn sees the same
// history.
func BenchmarkHeadlineTwoStepTurnPriorEvents(b *testing.B) {
	for _, prior := range []int{10_000} {
		b.Run(fmt.Sprintf("prior=%d", prior), func(b *testing.B) {
			hl := newHeadline(b)
			hl.h.Runner.HistorySessions = -1
			// The default limits stop a session at 10,000 events; no limits here.
			store := memory.New(memory.WithLimits(sessions.Limits{MaxEvents: -1, MaxBytes: -1}))
			hl.h.Sessions, hl.h.Runner.Sessions = store, store
			ctx := b.Context()
			prefix := history(prior)
			fill := func() string {
				sid := hl.newSession(ctx, b)
				sess, err := hl.h.Sessions.Get(ctx, sessions.GetRequest{AppName: et.AppName, UserID: et.UserID, SessionID: sid,
					Select: sessions.SelectNone})
				if err != nil {
					b.Fatal(err)
				}
				for _, ev := range prefix {
					if err := hl.h.Sessions.AppendEvent(ctx, sess, ev); err != nil {
						b.Fatal(err)
					}
					sess.Events = sess.Events[:0]
				}
				return sid
			}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				sid := fill()
				b.StartTimer()
				hl.twoStep(ctx, b, sid)
				b.StopTimer()
				if err := hl.h.Sessions.Delete(ctx, et.AppName, et.UserID, sid); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}
