package graph_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// TestSpansOfAWorkflow: a workflow's spans are ADK 2.13's: the invocation
// is the root's invoke_workflow, a function node is an invoke_node span
// naming the events it emitted, a nested workflow an invoke_workflow span
// marked nested.
func TestSpansOfAWorkflow(t *testing.T) {
	t.Parallel()
	inner, err := graph.New(graph.Config{Name: "inner", Nodes: []*graph.Node{fn("b")}, Edges: chain(graph.Start, "b")})
	if err != nil {
		t.Fatal(err)
	}
	h := harness(t, graph.Config{Name: "wf",
		Nodes: []*graph.Node{fn("a"), {Name: "inner", Kind: graph.AgentNode, Agent: inner}},
		Edges: chain(graph.Start, "a", "inner")})
	rec := tracetest.NewSpanRecorder()
	tel, err := runtime.NewTelemetry(runtime.TelemetryConfig{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))})
	if err != nil {
		t.Fatal(err)
	}
	h.Runner.Telemetry = tel
	c := &client{fns: map[string]nodeFn{"a": output(val(t, "x")), "b": output(val(t, "y"))}}
	sid := h.NewSession(t, nil)
	events, err := run(t, h, sid, et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	spans := rec.Ended()
	names := map[string]string{}
	for _, s := range spans {
		names[s.SpanContext().SpanID().String()] = s.Name()
	}
	slices.SortFunc(spans, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	var tree []string
	attrs := map[string]map[string]string{}
	for _, s := range spans {
		parent := "-"
		if s.Parent().IsValid() {
			parent = names[s.Parent().SpanID().String()]
		}
		tree = append(tree, parent+" > "+s.Name())
		m := map[string]string{}
		for _, kv := range s.Attributes() {
			m[string(kv.Key)] = kv.Value.String()
		}
		attrs[s.Name()] = m
	}
	want := []string{
		"- > invoke_workflow wf",
		"invoke_workflow wf > invoke_node a",
		"invoke_workflow wf > invoke_workflow inner",
		"invoke_workflow inner > invoke_node b",
	}
	if d := cmp.Diff(want, tree); d != "" {
		t.Fatalf("span tree (-want +got):\n%s", d)
	}
	var aEvent string
	for _, ev := range events {
		if ev.GetNodeInfo().GetPath() == "wf@1/a@1" {
			aEvent = ev.Id
		}
	}
	for name, want := range map[string]map[string]string{
		"invoke_workflow wf":    {"gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": "wf", "gen_ai.workflow.nested": ""},
		"invoke_workflow inner": {"gen_ai.operation.name": "invoke_workflow", "gen_ai.workflow.name": "inner", "gen_ai.workflow.nested": "true"},
		"invoke_node a": {"gen_ai.operation.name": "invoke_node", "gen_ai.conversation.id": sid,
			"gcp.vertex.agent.associated_event_ids": `["` + aEvent + `"]`},
	} {
		for k, v := range want {
			if got := attrs[name][k]; got != v {
				t.Errorf("%s %s = %q, want %q", name, k, got, v)
			}
		}
	}
}
