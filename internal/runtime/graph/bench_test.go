package graph_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// BenchmarkWorkflowInvocationInProcessNodes runs a five-node chain with a
// fan-out and a join per invocation, sessions in memory stored as a real
// invocation stores them; the node functions answer in-process (no
// Connect stream).
func BenchmarkWorkflowInvocationInProcessNodes(b *testing.B) {
	join := &graph.Node{Name: "join", Kind: graph.Join}
	cfg := graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("b"), fn("c"), join, fn("d")},
		Edges: []graph.Edge{{From: graph.Start, To: "a"}, {From: "a", To: "b"}, {From: "a", To: "c"},
			{From: "b", To: "join"}, {From: "c", To: "join"}, {From: "join", To: "d"}}}
	w, err := graph.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	h := et.New(b, w)
	h.Runner.App.Behavior, h.Runner.App.NodePaths = runtime.Behavior2x, true
	out := structpb.NewStringValue("x")
	answer := func(*graph.Call) (*graph.Result, error) { return &graph.Result{Output: out}, nil }
	c := &client{fns: map[string]nodeFn{"a": answer, "b": answer, "c": answer, "d": answer}}
	msg := et.UserText("go")
	b.ReportAllocs()
	for b.Loop() {
		sid := h.NewSession(b, nil)
		for _, err := range h.Runner.Run(b.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: msg,
			RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: c}) {
			if err != nil {
				b.Fatal(err)
			}
		}
		c.calls = c.calls[:0]
	}
}
