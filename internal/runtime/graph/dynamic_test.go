package graph_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/retry"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// double is a dynamic child that doubles its number.
func double(call *graph.Call) (*graph.Result, error) {
	return &graph.Result{Output: structpb.NewNumberValue(2 * call.Input.GetNumberValue())}, nil
}

// TestBehaviorDynamicNodes: as ADK 2.13's ctx.run_node, a child runs under
// the calling node's path, numbered by name ("parent@1/double@1", then
// @2), its output event is the workflow's, its output goes back to the
// caller, and the caller's own output follows.
func TestBehaviorDynamicNodes(t *testing.T) {
	t.Parallel()
	parent := fn("parent")
	parent.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{parent, fn("after")}, Edges: chain(graph.Start, "parent", "after")})
	var got []any
	c := &client{fns: map[string]nodeFn{
		"double": double,
		"parent": func(call *graph.Call) (*graph.Result, error) {
			ctx := t.Context()
			a, err := call.RunChild(ctx, &graph.ChildRequest{Function: "double", Input: structpb.NewNumberValue(3)})
			if err != nil {
				return nil, err
			}
			b, err := call.RunChild(ctx, &graph.ChildRequest{Function: "double", Input: a.Output})
			if err != nil {
				return nil, err
			}
			got = append(got, a.Path, b.Path, b.Output.GetNumberValue(), call.SessionID != "")
			return &graph.Result{Output: b.Output}, nil
		},
		"after": func(call *graph.Call) (*graph.Result, error) { return &graph.Result{Output: call.Input}, nil },
	}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{"wf@1/parent@1/double@1", "wf@1/parent@1/double@2", 12.0, true}, got); diff != "" {
		t.Errorf("parent saw (-want +got):\n%s", diff)
	}
	type shape struct {
		Path      string
		OutputFor []string
		Output    float64
	}
	var shapes []shape
	for _, ev := range events {
		if ev.Output != nil {
			shapes = append(shapes, shape{ev.GetNodeInfo().GetPath(), ev.GetNodeInfo().GetOutputFor(), ev.Output.GetNumberValue()})
		}
	}
	want := []shape{
		{"wf@1/parent@1/double@1", []string{"wf@1/parent@1/double@1"}, 6},
		{"wf@1/parent@1/double@2", []string{"wf@1/parent@1/double@2"}, 12},
		{"wf@1/parent@1", []string{"wf@1/parent@1"}, 12},
		{"wf@1/after@1", []string{"wf@1/after@1", "wf@1"}, 12},
	}
	if diff := cmp.Diff(want, shapes); diff != "" {
		t.Errorf("output events (-want +got):\n%s", diff)
	}
}

// TestBehaviorDynamicNodeUseAsOutput: the child's output event stands for
// its caller too, the caller emits no output event of its own, and its
// successors get what the caller returned (as ADK 2.13 passes it on).
func TestBehaviorDynamicNodeUseAsOutput(t *testing.T) {
	t.Parallel()
	parent := fn("parent")
	parent.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{parent, fn("after")}, Edges: chain(graph.Start, "parent", "after")})
	c := &client{fns: map[string]nodeFn{
		"double": double,
		"parent": func(call *graph.Call) (*graph.Result, error) {
			if _, err := call.RunChild(t.Context(), &graph.ChildRequest{Function: "double",
				Input: structpb.NewNumberValue(5), UseAsOutput: true}); err != nil {
				return nil, err
			}
			return &graph.Result{Output: structpb.NewStringValue("returned")}, nil
		},
		"after": func(call *graph.Call) (*graph.Result, error) { return &graph.Result{Output: call.Input}, nil },
	}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	var paths [][]string
	var last *structpb.Value
	for _, ev := range events {
		if ev.Output != nil {
			paths, last = append(paths, ev.GetNodeInfo().GetOutputFor()), ev.Output
		}
	}
	want := [][]string{{"wf@1/parent@1/double@1", "wf@1/parent@1"}, {"wf@1/after@1", "wf@1"}}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("output events (-want +got):\n%s", diff)
	}
	if last.GetStringValue() != "returned" {
		t.Errorf("after got %v, want the caller's return value", last)
	}
}

// TestDynamicNodeErrors: the failures the caller sees, with ADK's texts.
func TestDynamicNodeErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		rerun    bool
		req      *graph.ChildRequest
		wantType string
		wantMsg  string
		cause    string
	}{
		{"no rerun_on_resume", false, &graph.ChildRequest{Function: "double"}, "ValueError",
			"A node must have rerun_on_resume=True. Reason is that dynamically scheduled nodes might be interrupted, and the workflow wakes-up/re-runs the parent node, so it can get the child node response.", ""},
		{"numeric run id", true, &graph.ChildRequest{Function: "double", RunID: "7"}, "ValueError",
			`Explicit run_id "7" for node "double" must contain non-numeric characters to prevent collision with auto-generated IDs.`, ""},
		{"child fails", true, &graph.ChildRequest{Function: "boom", RunID: "x1"}, "DynamicNodeFailError", "Dynamic node boom failed", "KeyError"},
		{"unknown node", true, &graph.ChildRequest{Node: "nope"}, "ValueError", `workflow wf has no node "nope"`, ""},
	} {
		parent := fn("parent")
		parent.RerunOnResume = tc.rerun
		h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{parent}, Edges: chain(graph.Start, "parent")})
		var got error
		c := &client{fns: map[string]nodeFn{
			"boom": func(*graph.Call) (*graph.Result, error) {
				return nil, &graph.NodeError{Type: "KeyError", Message: "'nope'"}
			},
			"parent": func(call *graph.Call) (*graph.Result, error) {
				_, got = call.RunChild(t.Context(), tc.req)
				return &graph.Result{}, nil
			},
		}}
		if _, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ce := (*graph.ChildError)(nil)
		if !errors.As(got, &ce) {
			t.Fatalf("%s: error %v, want a ChildError", tc.name, got)
		}
		if ce.Type != tc.wantType || ce.Message != tc.wantMsg {
			t.Errorf("%s: got %s: %s, want %s: %s", tc.name, ce.Type, ce.Message, tc.wantType, tc.wantMsg)
		}
		if tc.cause != "" && (ce.Cause == nil || ce.Cause.Type != tc.cause) {
			t.Errorf("%s: cause %v, want %s", tc.name, ce.Cause, tc.cause)
		}
	}
}

// TestDynamicNodeDepthBound: a child that runs itself stops at the bound.
func TestDynamicNodeDepthBound(t *testing.T) {
	t.Parallel()
	parent := fn("rec")
	parent.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{parent}, Edges: chain(graph.Start, "rec")})
	depth := 0
	rec := func(call *graph.Call) (*graph.Result, error) {
		depth++
		_, err := call.RunChild(t.Context(), &graph.ChildRequest{Function: "rec"})
		return nil, err
	}
	c := &client{fns: map[string]nodeFn{"rec": func(call *graph.Call) (*graph.Result, error) { return rec(call) }}}
	if _, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c); err == nil {
		t.Fatal("want the deepest child's error to fail the run")
	}
	if depth != graph.MaxDynamicDepth+1 {
		t.Errorf("ran %d deep, want %d", depth, graph.MaxDynamicDepth+1)
	}
}

// TestBehaviorDynamicAgentNode: a node of the graph run by name runs
// alone under the caller's path (an LlmAgent as a single-turn node, its
// input the caller's), and its answer is the caller's value.
func TestBehaviorDynamicAgentNode(t *testing.T) {
	t.Parallel()
	writer := mustAgent(t, llmagent.Config{Name: "writer", Model: "scripted", Instruction: "W."})
	parent := fn("parent")
	parent.RerunOnResume = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{parent, {Name: "writer", Kind: graph.AgentNode, Agent: writer}},
		Edges: chain(graph.Start, "parent", "writer")})
	m := scripted.New("scripted", et.Text("drafted"), et.Text("final"))
	h.Models.Add(m)
	var got *graph.ChildResult
	c := &client{fns: map[string]nodeFn{"parent": func(call *graph.Call) (*graph.Result, error) {
		var err error
		got, err = call.RunChild(t.Context(), &graph.ChildRequest{Node: "writer", Input: structpb.NewStringValue("a poem")})
		if err != nil {
			return nil, err
		}
		return &graph.Result{Output: got.Output}, nil
	}}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != "wf@1/parent@1/writer@1" || got.Output.GetStringValue() != "drafted" {
		t.Errorf("child = %s %v", got.Path, got.Output)
	}
	var paths []string
	for _, ev := range events {
		paths = append(paths, ev.GetNodeInfo().GetPath())
	}
	want := []string{"wf@1/parent@1/writer@1", "wf@1/parent@1", "wf@1/writer@1"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("event paths (-want +got):\n%s", diff)
	}
	// As for a node of the graph: the session so far, then the input as
	// the latest user turn.
	if got := et.Contents(m.Requests()[0].GetContents()); !equalStrings(got, []string{"user: go", "user: a poem"}) {
		t.Errorf("the child's request = %q", got)
	}
}

// TestDynamicNodeRetriedCallerDelegatesAgain: a caller retried by its
// retry_config may name a use_as_output child again.
func TestDynamicNodeRetriedCallerDelegatesAgain(t *testing.T) {
	t.Parallel()
	parent := fn("parent")
	parent.RerunOnResume = true
	parent.Retry = &retry.Config{MaxAttempts: 2}
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{parent}, Edges: chain(graph.Start, "parent"),
		Sleep: (&clock{}).sleep})
	attempts := 0
	c := &client{fns: map[string]nodeFn{
		"double": double,
		"parent": func(call *graph.Call) (*graph.Result, error) {
			attempts++
			if _, err := call.RunChild(t.Context(), &graph.ChildRequest{Function: "double",
				Input: structpb.NewNumberValue(1), UseAsOutput: true}); err != nil {
				return nil, err
			}
			if attempts == 1 {
				return nil, &graph.NodeError{Type: "ValueError", Message: "again"}
			}
			return &graph.Result{}, nil
		},
	}}
	if _, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c); err != nil {
		t.Fatal(err)
	}
	if attempts != 2 {
		t.Errorf("%d attempts", attempts)
	}
}
