package graph_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

func chatWorkflow(t *testing.T, coordinator *llmagent.Agent) *graph.Workflow {
	t.Helper()
	wf, err := graph.New(graph.Config{Name: "wf",
		Nodes: []*graph.Node{{Name: coordinator.Name(), Kind: graph.AgentNode, Agent: coordinator}},
		Edges: []graph.Edge{{From: graph.Start, To: coordinator.Name()}}})
	if err != nil {
		t.Fatal(err)
	}
	return wf
}

// TestBehaviorChatMixedTurn: a turn that calls a tool and delegates ends
// at the delegation (ADK 2.13); the tool runs when the coordinator runs
// again, after the task's answer, and both answers reach the model.
func TestBehaviorChatMixedTurn(t *testing.T) {
	lookup, err := tools.NewFunction(tools.FunctionConfig{Name: "lookup", Description: "Looks up q.",
		Parameters: enginetest.Struct(`{"type": "object", "properties": {"q": {"type": "string"}}}`),
		Run: func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
			return map[string]any{"found": args.GetFields()["q"].GetStringValue()}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	researcher := mustAgent(t, llmagent.Config{Name: "researcher", Model: "scripted", Mode: llmagent.ModeTask, Instruction: "R."})
	coordinator := mustAgent(t, llmagent.Config{Name: "coordinator", Model: "scripted", Mode: llmagent.ModeChat, Instruction: "C.",
		Tools: []runtime.Tool{lookup}, SubAgents: []runtime.Agent{researcher}})
	m := scripted.New("scripted",
		enginetest.Calls(&v1.FunctionCall{Id: "c1", Name: "lookup", Args: enginetest.Struct(`{"q": "x"}`)},
			&v1.FunctionCall{Id: "c2", Name: "researcher", Args: enginetest.Struct(`{"request": "do"}`)}),
		call("f1", "finish_task", `{"result": "done"}`),
		enginetest.Text("ok"))
	h := newApp(t, chatWorkflow(t, coordinator), m)
	events := h.RunText(t, h.NewSession(t, nil), "go")
	want := []string{
		"coordinator: call lookup{\"q\":\"x\"} #c1",
		"coordinator: call researcher{\"request\":\"do\"} #c2",
		"researcher: call finish_task{\"result\":\"done\"} #f1",
		"researcher: response finish_task{\"result\":\"Task completed.\"} #f1",
		"user: response researcher{\"result\":\"done\"} #c2",
		"coordinator: response lookup{\"found\":\"x\"} #c1",
		"coordinator: ok",
	}
	got := enginetest.Events(events)
	if !equalStrings(got, want) {
		t.Errorf("events:\n got %q\nwant %q", got, want)
	}
	reqs := m.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	wantLast := []string{
		"user: go",
		"model: call lookup{\"q\":\"x\"} #c1",
		"model: call researcher{\"request\":\"do\"} #c2",
		"user: response researcher{\"result\":\"done\"} #c2",
		"user: response lookup{\"found\":\"x\"} #c1",
	}
	if got := enginetest.Contents(reqs[2].GetContents()); !equalStrings(got, wantLast) {
		t.Errorf("last request:\n got %q\nwant %q", got, wantLast)
	}
	if got := enginetest.Contents(reqs[1].GetContents()); !equalStrings(got, []string{`user: {"request": "do"}`}) {
		t.Errorf("sub-agent request = %q", got)
	}
}

// TestBehaviorTaskRetryInsideDelegation: a delegated task whose
// finish_task fails validation retries inside its scope; the coordinator
// sees only the final answer.
func TestBehaviorTaskRetryInsideDelegation(t *testing.T) {
	schema := enginetest.Struct(`{"type": "object", "title": "Out", "properties": {"n": {"type": "integer"}}, "required": ["n"]}`)
	worker := mustAgent(t, llmagent.Config{Name: "worker", Model: "scripted", Mode: llmagent.ModeTask, OutputSchema: schema})
	coordinator := mustAgent(t, llmagent.Config{Name: "boss", Model: "scripted", SubAgents: []runtime.Agent{worker}})
	m := scripted.New("scripted",
		call("d1", "worker", `{"request": "count"}`),
		call("f1", "finish_task", `{"n": "many"}`),
		call("f2", "finish_task", `{"n": 3}`),
		enginetest.Text("three"))
	h := newApp(t, chatWorkflow(t, coordinator), m)
	events := h.RunText(t, h.NewSession(t, nil), "how many?")
	if got := len(events); got != 7 {
		t.Fatalf("%d events: %q", got, enginetest.Events(events))
	}
	errText := events[2].GetContent().GetParts()[0].GetFunctionResponse().GetResponse().GetFields()["error"].GetStringValue()
	wantErr := "Invoking `finish_task()` failed due to validation errors:\n1 validation error for Out\nn\n" +
		"  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='many', input_type=str]\n" +
		"    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n" +
		"You could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters with correct types."
	if errText != wantErr {
		t.Errorf("error = %q\nwant %q", errText, wantErr)
	}
	for _, ev := range events[1:5] {
		if ev.GetIsolationScope() != "d1" || ev.GetBranch() != "worker@d1" || ev.GetNodeInfo().GetPath() != "wf@1/boss@1/worker@d1" {
			t.Errorf("task event scope %q branch %q path %q", ev.GetIsolationScope(), ev.GetBranch(), ev.GetNodeInfo().GetPath())
		}
	}
	if out := events[4].GetOutput().GetStructValue().GetFields()["n"].GetNumberValue(); out != 3 {
		t.Errorf("task output = %v", events[4].GetOutput())
	}
	reqs := m.Requests()
	if got := enginetest.Contents(reqs[3].GetContents()); len(got) != 3 {
		t.Errorf("coordinator's history holds the task's internals: %q", got)
	}
	if got := enginetest.Contents(reqs[2].GetContents()); len(got) != 3 || got[0] != `user: {"request": "count"}` {
		t.Errorf("task's retry history = %q", got)
	}
	if tools := reqs[0].GetConfig().GetTools(); len(tools) != 1 || len(tools[0].GetFunctionDeclarations()) != 1 {
		t.Errorf("coordinator tools = %v", tools)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTaskNodeInputFromPredecessor: a task node whose input is not the
// user's message gets it as its latest user turn, after the quoted history
// of the first task (as ADK 2.13 shows it), never stored (the seed's
// input injection; ADK 2.13 drops such an input).
func TestTaskNodeInputFromPredecessor(t *testing.T) {
	first := mustAgent(t, llmagent.Config{Name: "first", Model: "scripted", Mode: llmagent.ModeTask, Instruction: "First."})
	second := mustAgent(t, llmagent.Config{Name: "second", Model: "scripted", Mode: llmagent.ModeTask, Instruction: "Second.", OutputKey: "out"})
	wf, err := graph.New(graph.Config{Name: "wf",
		Nodes: []*graph.Node{{Name: "n1", Kind: graph.TaskNode, Agent: first}, {Name: "n2", Kind: graph.TaskNode, Agent: second}},
		Edges: []graph.Edge{{From: graph.Start, To: "n1"}, {From: "n1", To: "n2"}}})
	if err != nil {
		t.Fatal(err)
	}
	m := scripted.New("scripted", call("f1", "finish_task", `{"result": "one"}`), call("f2", "finish_task", `{"result": "two"}`))
	h := newApp(t, wf, m)
	sid := h.NewSession(t, nil)
	events := h.RunText(t, sid, "go")
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := enginetest.Contents(reqs[1].GetContents())
	if len(got) != 6 || got[0] != "user: go" || got[5] != `user: {"result": "one"}` {
		t.Errorf("second task's contents = %q", got)
	}
	last := events[len(events)-1]
	if last.GetAuthor() != "wf" || !equalStrings(last.GetNodeInfo().GetOutputFor(), []string{"wf@1/n2@1", "wf@1"}) {
		t.Errorf("last event author %q outputFor %q", last.GetAuthor(), last.GetNodeInfo().GetOutputFor())
	}
	s := h.Session(t, sid)
	for _, ev := range s.GetEvents() {
		if ev.GetAuthor() == "user" && ev.GetContent().GetParts()[0].GetText() != "go" {
			t.Errorf("the node input was stored: %v", ev)
		}
	}
	if got := s.GetState().GetFields()["out"].GetStructValue().GetFields()["result"].GetStringValue(); got != "two" {
		t.Errorf("state out = %q", got)
	}
}

// TestTaskNodePausesAtLongRunningCall: a task agent's long-running call
// pauses the workflow; the user's answer runs the node again, and its
// finish_task call ends it.
func TestTaskNodePausesAtLongRunningCall(t *testing.T) {
	approve, err := tools.NewFunction(tools.FunctionConfig{Name: "approve", Description: "Asks for approval.", LongRunning: true,
		Parameters: enginetest.Struct(`{"type": "object", "properties": {}}`),
		Run:        func(*runtime.ToolContext, *structpb.Struct) (any, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	worker := mustAgent(t, llmagent.Config{Name: "worker", Model: "scripted", Mode: llmagent.ModeTask, Tools: []runtime.Tool{approve}})
	wf, err := graph.New(graph.Config{Name: "wf", Nodes: []*graph.Node{{Name: "n", Kind: graph.TaskNode, Agent: worker}},
		Edges: []graph.Edge{{From: graph.Start, To: "n"}}})
	if err != nil {
		t.Fatal(err)
	}
	m := scripted.New("scripted", call("a1", "approve", `{}`), call("f1", "finish_task", `{"result": "approved"}`))
	h := newApp(t, wf, m)
	sid := h.NewSession(t, nil)
	first := h.RunText(t, sid, "go")
	if len(first) == 0 || first[0].GetContent().GetParts()[0].GetFunctionCall().GetName() != "approve" {
		t.Fatalf("first turn: %q", enginetest.Events(first))
	}
	if m.Calls() != 1 {
		t.Fatalf("model called %d times before the answer", m.Calls())
	}
	answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: "a1", Name: "approve",
		Response: enginetest.Struct(`{"ok": true}`)}}}}
	second, err := h.Run(t.Context(), sid, answer, runtime.RunConfig{MaxLLMCalls: 10})
	if err != nil {
		t.Fatal(err)
	}
	last := second[len(second)-1]
	if got := last.GetOutput().GetStructValue().GetFields()["result"].GetStringValue(); got != "approved" {
		t.Errorf("second turn: %q", enginetest.Events(second))
	}
}
