package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// pausing is a client whose caller runs child a (doubling), then child b,
// which asks the user unless answered, and records what ran.
type pausing struct {
	// delegate runs a as use_as_output.
	delegate bool
	mu       sync.Mutex
	runs     []string
	seen     []any
}

func (p *pausing) ran(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.runs = append(p.runs, s)
}

func (p *pausing) client() *client {
	return &client{fns: map[string]nodeFn{
		"a": func(call *graph.Call) (*graph.Result, error) {
			p.ran("a " + call.Path)
			return double(call)
		},
		"b": func(call *graph.Call) (*graph.Result, error) {
			p.ran("b " + call.Path)
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "ask-1", Message: "ok?"}}}, nil
		},
		"caller": func(call *graph.Call) (*graph.Result, error) {
			p.ran("caller " + call.Path)
			ctx := context.Background()
			a, err := call.RunChild(ctx, &graph.ChildRequest{Function: "a", Input: structpb.NewNumberValue(3), UseAsOutput: p.delegate})
			if err != nil {
				return nil, err
			}
			b, err := call.RunChild(ctx, &graph.ChildRequest{Function: "b"})
			if err != nil {
				p.mu.Lock()
				p.seen = append(p.seen, err.Error())
				p.mu.Unlock()
				// A caller that goes on anyway changes nothing: it waits.
				return &graph.Result{Output: structpb.NewStringValue("ignored")}, nil
			}
			p.mu.Lock()
			p.seen = append(p.seen, call.ResumeInputs.AsMap(), a.Path, b.Path)
			p.mu.Unlock()
			out, err := structpb.NewValue(map[string]any{"a": a.Output.AsInterface(), "b": b.Output.AsInterface()})
			return &graph.Result{Output: out}, err
		},
		"after": func(call *graph.Call) (*graph.Result, error) { return &graph.Result{Output: call.Input}, nil },
	}}
}

// pauseShapes lists the events' paths with their outputs and questions.
func pauseShapes(events []*v1.Event) []string {
	var out []string
	for _, ev := range events {
		s := ev.GetNodeInfo().GetPath()
		switch {
		case ev.Output != nil:
			b, _ := json.Marshal(ev.Output.AsInterface())
			s += " output " + string(b)
		case len(ev.LongRunningToolIds) > 0:
			s += " asks " + strings.Join(ev.LongRunningToolIds, ",")
		case ev.GetActions().GetAgentState() != nil:
			s += " state"
		default:
			continue
		}
		out = append(out, s)
	}
	return out
}

// TestBehaviorDynamicNodePauses: as ADK 2.13, a dynamic child that asks
// the user makes its caller wait on its question, with no event of the
// caller's; on resume the caller runs again at its path, the finished
// child's output replays without a run or an event, the asking child's
// answer is its output, and the workflow goes on.
func TestBehaviorDynamicNodePauses(t *testing.T) {
	t.Parallel()
	caller := fn("caller")
	caller.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{caller, fn("after")}, Edges: chain(graph.Start, "caller", "after")})
	p := &pausing{}
	sid := h.NewSession(t, nil)
	events, err := run(t, h, sid, et.UserText("go"), p.client())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`wf@1/caller@1/a@1 output 6`, `wf@1/caller@1/b@1 asks ask-1`, `wf@1 state`}
	if diff := cmp.Diff(want, pauseShapes(events)); diff != "" {
		t.Errorf("first turn (-want +got):\n%s", diff)
	}
	events, err = run(t, h, sid, answer(t, "ask-1", map[string]any{"result": "yes"}), p.client())
	if err != nil {
		t.Fatal(err)
	}
	want = []string{`wf@1/caller@1 output {"a":6,"b":"yes"}`, `wf@1/after@1 output {"a":6,"b":"yes"}`}
	if diff := cmp.Diff(want, pauseShapes(events)); diff != "" {
		t.Errorf("resumed turn (-want +got):\n%s", diff)
	}
	wantRuns := []string{"caller wf@1/caller@1", "a wf@1/caller@1/a@1", "b wf@1/caller@1/b@1", "caller wf@1/caller@1"}
	if diff := cmp.Diff(wantRuns, p.runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
	wantSeen := []any{"NodeInterruptedError: Dynamic node wf@1/caller@1/b@1 is waiting for the user's input",
		map[string]any{"ask-1": "yes"}, "wf@1/caller@1/a@1", "wf@1/caller@1/b@1"}
	if diff := cmp.Diff(wantSeen, p.seen); diff != "" {
		t.Errorf("caller saw (-want +got):\n%s", diff)
	}
}

// TestDynamicNodePauseReplaysDelegate: a use_as_output child replayed
// still stands for its caller, which emits no output event of its own, as
// ADK 2.13; its successors get what it returned.
func TestDynamicNodePauseReplaysDelegate(t *testing.T) {
	t.Parallel()
	caller := fn("caller")
	caller.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{caller, fn("after")}, Edges: chain(graph.Start, "caller", "after")})
	p := &pausing{delegate: true}
	sid := h.NewSession(t, nil)
	if _, err := run(t, h, sid, et.UserText("go"), p.client()); err != nil {
		t.Fatal(err)
	}
	events, err := run(t, h, sid, answer(t, "ask-1", map[string]any{"result": "yes"}), p.client())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`wf@1/after@1 output {"a":6,"b":"yes"}`}
	if diff := cmp.Diff(want, pauseShapes(events)); diff != "" {
		t.Errorf("resumed turn (-want +got):\n%s", diff)
	}
}

// TestDynamicNodePauseNested: a child that waits on its own child waits
// too, and on resume runs again with the answer, replaying its child.
func TestDynamicNodePauseNested(t *testing.T) {
	t.Parallel()
	caller := fn("caller")
	caller.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{caller}, Edges: chain(graph.Start, "caller")})
	var runs []string
	var mu sync.Mutex
	ran := func(call *graph.Call) {
		mu.Lock()
		defer mu.Unlock()
		runs = append(runs, call.Path)
	}
	c := &client{fns: map[string]nodeFn{
		"ask": func(call *graph.Call) (*graph.Result, error) {
			ran(call)
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "q", ResponseSchema: val(t, map[string]any{"type": "integer"})}}}, nil
		},
		"mid": func(call *graph.Call) (*graph.Result, error) {
			ran(call)
			res, err := call.RunChild(t.Context(), &graph.ChildRequest{Function: "ask"})
			if err != nil {
				return nil, err
			}
			return &graph.Result{Output: structpb.NewNumberValue(res.Output.GetNumberValue() + 1)}, nil
		},
		"caller": func(call *graph.Call) (*graph.Result, error) {
			ran(call)
			res, err := call.RunChild(t.Context(), &graph.ChildRequest{Function: "mid"})
			if err != nil {
				return nil, err
			}
			return &graph.Result{Output: res.Output}, nil
		},
	}}
	sid := h.NewSession(t, nil)
	if _, err := run(t, h, sid, et.UserText("go"), c); err != nil {
		t.Fatal(err)
	}
	// An answer out of its schema is refused, and stores nothing.
	if _, err := run(t, h, sid, answer(t, "q", map[string]any{"result": "many"}), c); err == nil {
		t.Fatal("an answer out of its schema was accepted")
	}
	events, err := run(t, h, sid, answer(t, "q", map[string]any{"result": 41}), c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`wf@1/caller@1/mid@1 output 42`, `wf@1/caller@1 output 42`}
	if diff := cmp.Diff(want, pauseShapes(events)); diff != "" {
		t.Errorf("resumed turn (-want +got):\n%s", diff)
	}
	wantRuns := []string{"wf@1/caller@1", "wf@1/caller@1/mid@1", "wf@1/caller@1/mid@1/ask@1", "wf@1/caller@1", "wf@1/caller@1/mid@1"}
	if diff := cmp.Diff(wantRuns, runs); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
}

// TestDynamicNodePauseNotCaught: a caller's error after its child paused
// does not fail it, nor is it retried.
func TestDynamicNodePauseNotCaught(t *testing.T) {
	t.Parallel()
	caller := fn("caller")
	caller.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{caller}, Edges: chain(graph.Start, "caller")})
	c := &client{fns: map[string]nodeFn{
		"ask": func(*graph.Call) (*graph.Result, error) {
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "q"}}}, nil
		},
		"caller": func(call *graph.Call) (*graph.Result, error) {
			_, err := call.RunChild(t.Context(), &graph.ChildRequest{Function: "ask"})
			if ce := (*graph.ChildError)(nil); errors.As(err, &ce) && ce.Type == graph.ChildPausedType {
				return nil, &graph.NodeError{Type: ce.Type, Message: ce.Message}
			}
			return nil, err
		},
	}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"wf@1/caller@1/ask@1 asks q", "wf@1 state"}, pauseShapes(events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestDynamicAgentNodePauses: an agent child's long-running call makes
// its caller wait; on resume the agent runs again at its path with the
// answer, and its reply is the caller's value.
func TestDynamicAgentNodePauses(t *testing.T) {
	t.Parallel()
	approve, err := tools.NewFunction(tools.FunctionConfig{Name: "approve", Description: "Asks for approval.", LongRunning: true,
		Parameters: et.Struct(`{"type": "object", "properties": {}}`),
		Run:        func(*runtime.ToolContext, *structpb.Struct) (any, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	writer := mustAgent(t, llmagent.Config{Name: "writer", Model: "scripted", Instruction: "W.", Tools: []runtime.Tool{approve}})
	parent := fn("parent")
	parent.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{parent, {Name: "writer", Kind: graph.AgentNode, Agent: writer}},
		Edges: chain(graph.Start, "parent", "writer")})
	m := scripted.New("scripted", call("a1", "approve", `{}`), et.Text("approved draft"), et.Text("final"))
	h.Models.Add(m)
	var mu sync.Mutex
	var runs []string
	c := &client{fns: map[string]nodeFn{"parent": func(call *graph.Call) (*graph.Result, error) {
		res, err := call.RunChild(t.Context(), &graph.ChildRequest{Node: "writer", Input: structpb.NewStringValue("a poem")})
		mu.Lock()
		defer mu.Unlock()
		runs = append(runs, call.Path)
		if err != nil {
			return nil, err
		}
		return &graph.Result{Output: res.Output}, nil
	}}}
	sid := h.NewSession(t, nil)
	first, err := run(t, h, sid, et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	for _, ev := range first {
		if len(ev.LongRunningToolIds) > 0 {
			asked = append(asked, ev.GetNodeInfo().GetPath()+" "+strings.Join(ev.LongRunningToolIds, ","))
		}
	}
	if diff := cmp.Diff([]string{"wf@1/parent@1/writer@1 a1"}, asked); diff != "" {
		t.Errorf("questions (-want +got):\n%s", diff)
	}
	reply := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: "a1", Name: "approve",
		Response: et.Struct(`{"ok": true}`)}}}}
	second, err := run(t, h, sid, reply, c)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range second {
		got = append(got, ev.GetNodeInfo().GetPath()+" "+strings.Join(et.Events([]*v1.Event{ev}), "")+" "+ev.Output.GetStringValue())
	}
	want := []string{"wf@1/parent@1/writer@1 writer: approved draft ", "wf@1/parent@1  approved draft", "wf@1/writer@1 writer: final "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resumed turn (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"wf@1/parent@1", "wf@1/parent@1"}, runs); diff != "" {
		t.Errorf("caller runs (-want +got):\n%s", diff)
	}
}
