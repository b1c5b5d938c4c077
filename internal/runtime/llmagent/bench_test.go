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
)

// replayStore serves one session whose history is a fixed template: every
// Get returns a new handle over the template, and appends go to that handle
// only, so each benchmark iteration sees the same history.
type replayStore struct {
	sessions.Service
	history []*v1.Event
}

func (s *replayStore) Get(_ context.Context, req sessions.GetRequest) (*v1.Session, error) {
	return &v1.Session{Id: req.SessionID, AppName: req.AppName, UserId: req.UserID, State: &structpb.Struct{},
		Events: append(make([]*v1.Event, 0, len(s.history)+8), s.history...)}, nil
}

func (s *replayStore) AppendEvent(_ context.Context, sess *v1.Session, ev *v1.Event) error {
	if ev.GetPartial() {
		return nil
	}
	for k, v := range ev.GetActions().GetStateDelta().GetFields() {
		if sess.State.Fields == nil {
			sess.State.Fields = map[string]*structpb.Value{}
		}
		sess.State.Fields[k] = v
	}
	sess.Events = append(sess.Events, ev)
	sess.LastUpdateTime = ev.Timestamp
	return nil
}

// history makes n prior events: user questions, tool calls and answers.
func history(n int) []*v1.Event {
	var events []*v1.Event
	for i := 0; len(events) < n; i++ {
		inv := fmt.Sprintf("e-%d", i)
		id := fmt.Sprintf("adk-%d", i)
		events = append(events,
			&v1.Event{Id: fmt.Sprint(i, "u"), InvocationId: inv, Author: "user", Content: et.UserText(fmt.Sprintf("question %d", i))},
			&v1.Event{Id: fmt.Sprint(i, "c"), InvocationId: inv, Author: "root_agent", Content: &v1.Content{Role: "model",
				Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: id, Name: "echo", Args: et.Struct(`{"q":1}`)}}}}},
			&v1.Event{Id: fmt.Sprint(i, "r"), InvocationId: inv, Author: "root_agent", Content: &v1.Content{Role: "user",
				Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: id, Name: "echo", Response: et.Struct(`{"echo":1}`)}}}}},
			&v1.Event{Id: fmt.Sprint(i, "a"), InvocationId: inv, Author: "root_agent", Content: &v1.Content{Role: "model",
				Parts: []*v1.Part{{Text: fmt.Sprintf("answer %d", i)}}}},
		)
	}
	return events[:n]
}

// BenchmarkTwoStepInvocation measures one invocation of a tool call and an
// answer (two model calls, three events) on the scripted model: the next
// turn of a session, each iteration on the same stored history. With
// kept=none the runner keeps no contents between invocations, as for the
// first invocation on a session after a restart.
func BenchmarkTwoStepInvocation(b *testing.B) {
	for _, c := range []struct {
		prior int
		kept  string
	}{{0, ""}, {1000, ""}, {1000, ",kept=none"}} {
		prior := c.prior
		b.Run(fmt.Sprintf("history=%d%s", prior, c.kept), func(b *testing.B) {
			agent, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: modelName, Instruction: "Use the echo tool.",
				Tools: []runtime.Tool{echoTool(b, "echo")}})
			if err != nil {
				b.Fatal(err)
			}
			h := et.New(b, agent)
			model := scripted.New(modelName)
			model.SetRecording(false)
			h.Models.Add(model)
			h.Runner.Sessions = &replayStore{Service: h.Sessions, history: history(prior)}
			if c.kept != "" {
				h.Runner.HistorySessions = -1
			}
			call, answer := et.Call("echo", `{"x":1}`), et.Text("done")
			req := runtime.RunRequest{UserID: et.UserID, SessionID: "s", RunConfig: runtime.RunConfig{MaxLLMCalls: 500}}
			ctx := b.Context()
			b.ReportAllocs()
			for b.Loop() {
				model.Enqueue(cloneResp(call), answer)
				req.NewMessage = et.UserText("hi")
				n := 0
				for _, err := range h.Runner.Run(ctx, req) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != 3 {
					b.Fatalf("events = %d, want 3", n)
				}
			}
		})
	}
}

// cloneResp copies the call response: the engine assigns the call an id.
func cloneResp(r *v1.LlmResponse) *v1.LlmResponse {
	fc := r.Content.Parts[0].FunctionCall
	return et.Calls(&v1.FunctionCall{Name: fc.Name, Args: fc.Args})
}
