package llmagent_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// loads records what the runner reads of its sessions; with whole set, it
// reads every event even where the runner asks for the compacted
// selection.
type loads struct {
	sessions.Service
	whole bool
	mu    sync.Mutex
	sizes []int // events read by each Get of the compacted selection
}

func (l *loads) Get(ctx context.Context, req sessions.GetRequest) (*v1.Session, error) {
	selection := req.Select == sessions.SelectCompacted
	if l.whole && selection {
		req.Select = sessions.SelectAll
	}
	s, err := l.Service.Get(ctx, req)
	if err == nil && selection {
		l.mu.Lock()
		l.sizes = append(l.sizes, len(s.GetEvents()))
		l.mu.Unlock()
	}
	return s, err
}

// longSessionScript is the model's answers to cycles of six invocations
// of a root agent and its helper with compaction every two invocations:
// the root answers, then hands over to the helper, which keeps the next
// turns and hands back to the root; each second invocation ends with a
// summary.
func longSessionScript(cycles int) []*v1.LlmResponse {
	var out []*v1.LlmResponse
	for c := range cycles {
		s := func(k int) *v1.LlmResponse { return et.Text(fmt.Sprintf("summary %d.%d", c, k)) }
		out = append(out,
			et.Text("root answers"),
			et.Call("transfer_to_agent", `{"agent_name":"helper"}`), et.Text("helper answers"), s(1),
			et.Text("helper again"),
			et.Text("helper once more"), s(2),
			et.Call("transfer_to_agent", `{"agent_name":"root_agent"}`), et.Text("root is back"),
			et.Text("root again"), s(3))
	}
	return out
}

// runLongSession runs cycles of six invocations on a fresh session and
// returns the model's requests and the store's reads.
func runLongSession(t *testing.T, cycles int, whole bool) ([]*v1.LlmRequest, *loads) {
	t.Helper()
	helper := newAgent(t, llmagent.Config{Name: "helper", Instruction: "Help."})
	root := newAgent(t, llmagent.Config{Instruction: "Route.", SubAgents: []runtime.Agent{helper}})
	h := et.New(t, root)
	store := &loads{Service: h.Sessions, whole: whole}
	h.Runner.Sessions = store
	h.Runner.App.Compaction = &compaction.Config{Interval: 2, Overlap: 1, Model: modelName}
	m := scripted.New(modelName, longSessionScript(cycles)...)
	h.Models.Add(m)
	sid := h.NewSession(t, nil)
	for i := range 6 * cycles {
		h.RunText(t, sid, fmt.Sprintf("turn %d", i))
	}
	if n := m.Remaining(); n != 0 {
		t.Fatalf("%d scripted answers left", n)
	}
	return m.Requests(), store
}

// TestCompactedLoadSendsTheSameRequests runs a long session with event
// compaction twice, reading the compacted selection of the session and
// reading it whole: every model request (the agents' and the
// summarizer's) is the same byte for byte, the agent that takes each turn
// is the same, and the compacted reads stay short.
func TestCompactedLoadSendsTheSameRequests(t *testing.T) {
	t.Parallel()
	const cycles = 4
	compacted, cl := runLongSession(t, cycles, false)
	whole, wl := runLongSession(t, cycles, true)
	if len(compacted) != len(whole) {
		t.Fatalf("model requests: %d compacted, %d whole", len(compacted), len(whole))
	}
	opts := proto.MarshalOptions{Deterministic: true}
	for i := range compacted {
		a, _ := opts.Marshal(compacted[i])
		b, _ := opts.Marshal(whole[i])
		if !bytes.Equal(a, b) {
			t.Fatalf("request %d differs:\ncompacted: %v\nwhole:     %v", i, compacted[i], whole[i])
		}
	}
	t.Logf("events read: compacted %v, whole %v", cl.sizes, wl.sizes)
	last := func(l *loads) int { return l.sizes[len(l.sizes)-1] }
	if c, w := last(cl), last(wl); c >= w/2 {
		t.Errorf("last invocation read %d events compacted, %d whole; want far fewer", c, w)
	}
}

// TestRetryFoundBehindCompaction checks that a run whose request id an
// invocation covered by a summary stored is still answered as a retry:
// runs with a request id read the whole history.
func TestRetryFoundBehindCompaction(t *testing.T) {
	t.Parallel()
	h := et.New(t, newAgent(t, llmagent.Config{}))
	h.Runner.App.Compaction = &compaction.Config{Interval: 1, Model: modelName}
	m := scripted.New(modelName, et.Text("one"), et.Text("s1"), et.Text("two"), et.Text("s2"), et.Text("three"), et.Text("s3"))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)
	run := func(text, requestID string) []*v1.Event {
		t.Helper()
		var out []*v1.Event
		for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
			NewMessage: et.UserText(text), RequestID: requestID, RunConfig: runtime.RunConfig{MaxLLMCalls: 10}}) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, ev)
		}
		return out
	}
	run("first", "r1")
	run("second", "")
	run("third", "")
	calls := m.Calls()
	got := run("first", "r1")
	if len(got) != 1 || got[0].GetContent().GetParts()[0].GetText() != "one" || m.Calls() != calls {
		t.Errorf("retry yielded %v after %d model calls, want the stored answer without one", et.Events(got), m.Calls()-calls)
	}
}

// TestCompactedLoadAnswersAnOldLongRunningCall runs, read compacted and
// read whole, a session where the user answers a long-running call after
// later invocations and summaries covered it: the run fails the same way
// either way (the summary hides the call from the contents, as in ADK),
// after the same model requests.
func TestCompactedLoadAnswersAnOldLongRunningCall(t *testing.T) {
	t.Parallel()
	run := func(whole bool) ([]*v1.LlmRequest, error) {
		approve := toolFunc(t, "approve", true, func(*runtime.ToolContext, *structpb.Struct) (any, error) {
			return map[string]any{"status": "pending"}, nil
		})
		helper := newAgent(t, llmagent.Config{Name: "helper", Tools: []runtime.Tool{approve}})
		root := newAgent(t, llmagent.Config{SubAgents: []runtime.Agent{helper}})
		h := et.New(t, root)
		h.Runner.Sessions = &loads{Service: h.Sessions, whole: whole}
		h.Runner.App.Compaction = &compaction.Config{Interval: 1, Model: modelName}
		m := scripted.New(modelName,
			et.Call("transfer_to_agent", `{"agent_name":"helper"}`), et.Call("approve", `{}`), et.Text("s1"),
			et.Call("transfer_to_agent", `{"agent_name":"root_agent"}`), et.Text("root here"), et.Text("s2"),
			et.Text("root again"), et.Text("s3"))
		h.Models.Add(m)
		sid := h.NewSession(t, nil)
		h.RunText(t, sid, "ask for approval")
		var callID string
		for _, ev := range h.Session(t, sid).Events {
			for _, p := range ev.GetContent().GetParts() {
				if c := p.GetFunctionCall(); c != nil && c.Name == "approve" {
					callID = c.Id
				}
			}
		}
		h.RunText(t, sid, "back to root")
		h.RunText(t, sid, "anything else")
		answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
			Id: callID, Name: "approve", Response: et.Struct(`{"status":"approved"}`)}}}}
		_, err := h.Run(t.Context(), sid, answer, runtime.RunConfig{MaxLLMCalls: 10})
		return m.Requests(), err
	}
	compacted, cerr := run(false)
	whole, werr := run(true)
	if cerr == nil || werr == nil || !errors.Is(cerr, contents.ErrNoFunctionCall) || !errors.Is(werr, contents.ErrNoFunctionCall) {
		t.Fatalf("errors: compacted %v, whole %v; want both: no function call", cerr, werr)
	}
	if len(compacted) != len(whole) {
		t.Fatalf("model requests: %d compacted, %d whole", len(compacted), len(whole))
	}
	opts := proto.MarshalOptions{Deterministic: true}
	for i := range compacted {
		a, _ := opts.Marshal(compacted[i])
		b, _ := opts.Marshal(whole[i])
		if !bytes.Equal(a, b) {
			t.Fatalf("request %d differs:\ncompacted: %v\nwhole:     %v", i, compacted[i], whole[i])
		}
	}
}
