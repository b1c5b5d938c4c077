package graph_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/retry"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// nodeShape is what the field tests compare of an event.
type nodeShape struct {
	Path, Branch string
	Output       any
	OutputFor    []string
}

func shapes(events []*v1.Event) []nodeShape {
	var out []nodeShape
	for _, ev := range events {
		s := nodeShape{Path: ev.GetNodeInfo().GetPath(), Branch: ev.GetBranch(), OutputFor: ev.GetNodeInfo().GetOutputFor()}
		if ev.Output != nil {
			s.Output = ev.Output.AsInterface()
		}
		out = append(out, s)
	}
	return out
}

// TestBehaviorWaitForOutput: a wait_for_output node that ends without an
// output does not trigger its successors; the run that outputs does.
func TestBehaviorWaitForOutput(t *testing.T) {
	t.Parallel()
	gate := fn("gate")
	gate.WaitForOutput = true
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("b"), gate, fn("after")},
		Edges: []graph.Edge{{From: graph.Start, To: "a"}, {From: "a", To: "b"}, {From: "a", To: "gate"}, {From: "b", To: "gate"},
			{From: "gate", To: "after"}}})
	runs := 0
	c := &client{fns: map[string]nodeFn{
		"a": output(structpb.NewStringValue("a")), "b": output(structpb.NewStringValue("b")),
		"gate": func(call *graph.Call) (*graph.Result, error) {
			runs++
			if runs < 2 {
				return &graph.Result{}, nil
			}
			return &graph.Result{Output: structpb.NewStringValue("open")}, nil
		},
		"after": output(structpb.NewStringValue("done")),
	}}
	if _, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c); err != nil {
		t.Fatal(err)
	}
	if got := c.paths(); !cmp.Equal(got, []string{"wf@1/a@1", "wf@1/b@1", "wf@1/gate@1", "wf@1/gate@2", "wf@1/after@1"}) &&
		!cmp.Equal(got, []string{"wf@1/a@1", "wf@1/gate@1", "wf@1/b@1", "wf@1/gate@2", "wf@1/after@1"}) {
		t.Errorf("calls = %v", got)
	}
}

// TestBehaviorParallelWorker: a parallel-worker node runs once per item
// of its input, each at its own path and branch, and outputs the items'
// outputs in order, as ADK 2.13's _ParallelWorker.
func TestBehaviorParallelWorker(t *testing.T) {
	t.Parallel()
	double := fn("double")
	double.ParallelWorker, double.MaxParallelWorkers = true, 2
	h := harness(t, graph.Config{Name: "pw", Nodes: []*graph.Node{fn("split"), double}, Edges: chain(graph.Start, "split", "double")})
	c := &client{fns: map[string]nodeFn{
		"split": output(val(t, []any{1, 2, 3})),
		"double": func(call *graph.Call) (*graph.Result, error) {
			return &graph.Result{Output: structpb.NewNumberValue(call.Input.GetNumberValue() * 2)}, nil
		},
	}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	got := shapes(events)
	if len(got) != 5 {
		t.Fatalf("events = %v", got)
	}
	items := map[string]nodeShape{}
	for _, s := range got[1:4] {
		items[s.Path] = s
	}
	want := map[string]nodeShape{
		"pw@1/double@1/double@1": {Path: "pw@1/double@1/double@1", Branch: "double@1", Output: 2.0, OutputFor: []string{"pw@1/double@1/double@1"}},
		"pw@1/double@1/double@2": {Path: "pw@1/double@1/double@2", Branch: "double@2", Output: 4.0, OutputFor: []string{"pw@1/double@1/double@2"}},
		"pw@1/double@1/double@3": {Path: "pw@1/double@1/double@3", Branch: "double@3", Output: 6.0, OutputFor: []string{"pw@1/double@1/double@3"}},
	}
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	wantLast := nodeShape{Path: "pw@1/double@1", Output: []any{2.0, 4.0, 6.0}, OutputFor: []string{"pw@1/double@1", "pw@1"}}
	if diff := cmp.Diff(wantLast, got[4]); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// TestBehaviorRequireConfirmation: a node that requires confirmation asks
// first, as ADK 2.13's FunctionNode; a confirmation runs it, a rejection
// is its output without running it.
func TestBehaviorRequireConfirmation(t *testing.T) {
	t.Parallel()
	for _, confirmed := range []bool{true, false} {
		remove := fn("remove")
		remove.RequireConfirmation, remove.RerunOnResume = true, true
		h := harness(t, graph.Config{Name: "rc", Nodes: []*graph.Node{remove}, Edges: chain(graph.Start, "remove")})
		c := &client{fns: map[string]nodeFn{"remove": func(call *graph.Call) (*graph.Result, error) {
			return &graph.Result{Output: val(t, map[string]any{"removed": call.Input.AsInterface()})}, nil
		}}}
		sid := h.NewSession(t, nil)
		events, err := run(t, h, sid, et.UserText("go"), c)
		if err != nil {
			t.Fatal(err)
		}
		if ids := interrupts(events); !cmp.Equal(ids, []string{"wf_tool_confirmation:rc@1/remove@1"}) || len(c.calls) != 0 {
			t.Fatalf("interrupts %v, calls %d", ids, len(c.calls))
		}
		args := runtimeCallArgs(events[0])
		if args["message"] != "Please approve or reject the tool call remove()." ||
			!cmp.Equal(args["payload"], map[string]any{"tool_name": "remove", "args": map[string]any{
				"node_input": map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}}}}) {
			t.Errorf("args = %v", args)
		}
		events, err = run(t, h, sid, answer(t, "wf_tool_confirmation:rc@1/remove@1", map[string]any{"confirmed": confirmed}), c)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"error": "This tool call is rejected."}
		if confirmed {
			want = map[string]any{"removed": map[string]any{"role": "user", "parts": []any{map[string]any{"text": "go"}}}}
		}
		if last := events[len(events)-1]; !cmp.Equal(last.GetOutput().AsInterface(), want) {
			t.Errorf("confirmed %v: output = %v", confirmed, last.GetOutput())
		}
	}
}

func runtimeCallArgs(ev *v1.Event) map[string]any {
	for _, p := range ev.GetContent().GetParts() {
		if p.FunctionCall != nil {
			return p.FunctionCall.Args.AsMap()
		}
	}
	return nil
}

// TestBehaviorAgentNodeRetry: an agent node with a retry_config runs
// again when its model fails, as ADK 2.13 retries any node, the failed
// attempt reported by one error event of the workflow.
func TestBehaviorAgentNodeRetry(t *testing.T) {
	t.Parallel()
	m := scripted.New("scripted")
	m.Push(scripted.Fail(&models.Error{HTTPStatus: 503, Status: "UNAVAILABLE", Message: "down"}), scripted.Response(et.Text("fine")))
	summariser := mustAgent(t, llmagent.Config{Name: "summariser", Model: "scripted", SingleTurn: true, IncludeContents: "none"})
	policy := retry.Config{MaxAttempts: 2}
	clk := &clock{}
	wf, err := graph.New(graph.Config{Name: "wf", Sleep: clk.sleep,
		Nodes: []*graph.Node{{Name: "summariser", Kind: graph.AgentNode, Agent: summariser, Retry: &policy}},
		Edges: chain(graph.Start, "summariser")})
	if err != nil {
		t.Fatal(err)
	}
	h := newApp(t, wf, m)
	events := h.RunText(t, h.NewSession(t, nil), "hello")
	if len(events) != 2 || events[0].ErrorCode != "UNAVAILABLE" || events[0].Author != "wf" || events[0].GetNodeInfo().GetPath() != "wf@1/summariser@1" {
		t.Fatalf("events = %v", events)
	}
	if out := events[1].GetContent().GetParts()[0].GetText(); out != "fine" || len(clk.waits) != 1 {
		t.Errorf("answer %q, waits %v", out, clk.waits)
	}
}

// TestBehaviorNestedWorkflowAnswerOnResume: a nested workflow with
// rerun_on_resume false is not resumed when its question is answered:
// the answer is its output.
func TestBehaviorNestedWorkflowAnswerOnResume(t *testing.T) {
	t.Parallel()
	inner, err := graph.New(graph.Config{Name: "inner_wf", AnswerOnResume: true, Nodes: []*graph.Node{fn("ask"), fn("never")},
		Edges: chain(graph.Start, "ask", "never")})
	if err != nil {
		t.Fatal(err)
	}
	h := harness(t, graph.Config{Name: "outer_wf", Nodes: []*graph.Node{{Name: "inner_wf", Kind: graph.AgentNode, Agent: inner}, fn("after")},
		Edges: chain(graph.Start, "inner_wf", "after")})
	var afterInput *structpb.Value
	c := &client{fns: map[string]nodeFn{
		"ask": func(*graph.Call) (*graph.Result, error) {
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "q1", Message: "ok?"}}}, nil
		},
		"never": output(structpb.NewStringValue("never")),
		"after": func(call *graph.Call) (*graph.Result, error) {
			afterInput = call.Input
			return &graph.Result{Output: structpb.NewStringValue("done")}, nil
		},
	}}
	sid := h.NewSession(t, nil)
	if _, err := run(t, h, sid, et.UserText("go"), c); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, h, sid, answer(t, "q1", map[string]any{"result": "yes"}), c); err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.paths(), " ") != "outer_wf@1/inner_wf@1/ask@1 outer_wf@1/after@1" || afterInput.GetStringValue() != "yes" {
		t.Errorf("calls %v, after's input %v", c.paths(), afterInput)
	}
}

// TestBehaviorTaskNodeDirect: a task-mode LlmAgent placed directly as a
// node runs as ADK 2.13 runs it: its events are its own, and its
// finish_task arguments are its output.
func TestBehaviorTaskNodeDirect(t *testing.T) {
	t.Parallel()
	m := scripted.New("scripted", call("c1", "finish_task", `{"result": "done it"}`))
	tasker := mustAgent(t, llmagent.Config{Name: "tasker", Model: "scripted", Mode: llmagent.ModeTask, Instruction: "Do the task."})
	wf, err := graph.New(graph.Config{Name: "tw", Nodes: []*graph.Node{{Name: "tasker", Kind: graph.AgentNode, Agent: tasker}, fn("after")},
		Edges: chain(graph.Start, "tasker", "after")})
	if err != nil {
		t.Fatal(err)
	}
	h := newApp(t, wf, m)
	c := &client{fns: map[string]nodeFn{"after": func(call *graph.Call) (*graph.Result, error) {
		return &graph.Result{Output: val(t, map[string]any{"after_got": call.Input.AsInterface()})}, nil
	}}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("do a task"), c)
	if err != nil {
		t.Fatal(err)
	}
	var authors []string
	for _, ev := range events {
		authors = append(authors, ev.Author+" "+ev.GetNodeInfo().GetPath())
	}
	want := []string{"tasker tw@1/tasker@1", "tasker tw@1/tasker@1", "tw tw@1/after@1"}
	if diff := cmp.Diff(want, authors); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if out := events[1].GetOutput().AsInterface(); !cmp.Equal(out, map[string]any{"result": "done it"}) {
		t.Errorf("task output = %v", out)
	}
	if out := events[2].GetOutput().AsInterface(); !cmp.Equal(out, map[string]any{"after_got": map[string]any{"result": "done it"}}) {
		t.Errorf("after output = %v", out)
	}
}

// TestBehaviorNestedWorkflowInput: a nested workflow's first node gets
// the enclosing node's input (its predecessor's output), as ADK 2.13 seeds
// a workflow run as a node, not the user's message.
func TestBehaviorNestedWorkflowInput(t *testing.T) {
	t.Parallel()
	inner, err := graph.New(graph.Config{Name: "inner_wf", Nodes: []*graph.Node{fn("a")}, Edges: chain(graph.Start, "a")})
	if err != nil {
		t.Fatal(err)
	}
	h := harness(t, graph.Config{Name: "outer_wf", Nodes: []*graph.Node{fn("prep"), {Name: "inner_wf", Kind: graph.AgentNode, Agent: inner}},
		Edges: chain(graph.Start, "prep", "inner_wf")})
	prepared := val(t, map[string]any{"text": "nest me", "x": 1})
	c := &client{fns: map[string]nodeFn{
		"prep": output(prepared),
		"a": func(call *graph.Call) (*graph.Result, error) {
			return &graph.Result{Output: val(t, map[string]any{"a_got": call.Input.AsInterface()})}, nil
		},
	}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("nest me"), c)
	if err != nil {
		t.Fatal(err)
	}
	last := events[len(events)-1]
	want := map[string]any{"a_got": map[string]any{"text": "nest me", "x": 1.0}}
	if diff := cmp.Diff(want, last.GetOutput().AsInterface()); diff != "" {
		t.Errorf("inner output (-want +got):\n%s", diff)
	}
}

// TestBehaviorParallelWorkerAgent: a single-turn LlmAgent as a parallel
// worker runs once per item, the item its user turn, each answer the
// item's output, as ADK 2.13 runs it.
func TestBehaviorParallelWorkerAgent(t *testing.T) {
	t.Parallel()
	m := scripted.New("scripted", et.Text("up:a"), et.Text("up:b"))
	upper := mustAgent(t, llmagent.Config{Name: "upper", Model: "scripted", Instruction: "Upper.", SingleTurn: true, IncludeContents: "none"})
	wf, err := graph.New(graph.Config{Name: "aw", Nodes: []*graph.Node{fn("split"),
		{Name: "upper", Kind: graph.AgentNode, Agent: upper, ParallelWorker: true, MaxParallelWorkers: 1}},
		Edges: chain(graph.Start, "split", "upper")})
	if err != nil {
		t.Fatal(err)
	}
	h := newApp(t, wf, m)
	c := &client{fns: map[string]nodeFn{"split": output(val(t, []any{"a", map[string]any{"k": 1}}))}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	var turns []string
	for _, req := range m.Requests() {
		turns = append(turns, req.GetContents()[len(req.GetContents())-1].GetParts()[0].GetText())
	}
	if !cmp.Equal(turns, []string{"a", `{"k": 1}`}) {
		t.Errorf("user turns = %q", turns)
	}
	want := []nodeShape{
		{Path: "aw@1/split@1", Output: []any{"a", map[string]any{"k": 1.0}}, OutputFor: []string{"aw@1/split@1"}},
		{Path: "aw@1/upper@1/upper@1", Branch: "upper@1", OutputFor: []string{"aw@1/upper@1/upper@1"}},
		{Path: "aw@1/upper@1/upper@2", Branch: "upper@2", OutputFor: []string{"aw@1/upper@1/upper@2"}},
		{Path: "aw@1/upper@1", Output: []any{"up:a", "up:b"}, OutputFor: []string{"aw@1/upper@1", "aw@1"}},
	}
	if diff := cmp.Diff(want, shapes(events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
