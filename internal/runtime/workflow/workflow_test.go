package workflow_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
	"github.com/agentsvc/agentsvc/internal/runtime/workflow"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func llm(t *testing.T, name, model string, mod ...func(*llmagent.Config)) *llmagent.Agent {
	t.Helper()
	c := llmagent.Config{Name: name, Model: model, DisallowTransferToParent: true, DisallowTransferToPeers: true}
	for _, f := range mod {
		f(&c)
	}
	a, err := llmagent.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestBehaviorL9SequentialWithOutputKeys(t *testing.T) {
	t.Parallel()
	writer := llm(t, "writer", "m-writer", func(c *llmagent.Config) { c.OutputKey = "draft" })
	reviewer := llm(t, "reviewer", "m-reviewer", func(c *llmagent.Config) { c.Instruction = "Review: {draft}" })
	seq, err := workflow.NewSequential(workflow.Config{Name: "pipeline", SubAgents: []runtime.Agent{writer, reviewer}})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, seq)
	h.Models.Add(scripted.New("m-writer", et.Text("a poem")))
	rev := scripted.New("m-reviewer", et.Text("lovely"))
	h.Models.Add(rev)
	sid := h.NewSession(t, nil)
	events := h.RunText(t, sid, "write")
	if d := cmp.Diff([]string{"writer: a poem", "reviewer: lovely"}, et.Events(events)); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	if si := rev.Requests()[0].Config.SystemInstruction; !strings.HasPrefix(si, "Review: a poem") {
		t.Errorf("reviewer instruction = %q", si)
	}
	for _, ev := range events {
		if ev.Branch != "" {
			t.Errorf("sequential child on branch %q, want the parent's", ev.Branch)
		}
	}
}

func TestBehaviorL9ParallelBranchesIsolated(t *testing.T) {
	t.Parallel()
	var children []runtime.Agent
	models := map[string]*scripted.Model{}
	for _, n := range []string{"a", "b"} {
		children = append(children, llm(t, "child_"+n, "m-"+n))
		models[n] = scripted.New("m-"+n, et.Text("from "+n), et.Text("again "+n))
	}
	par, err := workflow.NewParallel(workflow.Config{Name: "fanout", SubAgents: children})
	if err != nil {
		t.Fatal(err)
	}
	seq, err := workflow.NewSequential(workflow.Config{Name: "root", SubAgents: []runtime.Agent{par}})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, seq)
	for _, m := range models {
		h.Models.Add(m)
	}
	sid := h.NewSession(t, nil)
	events := h.RunText(t, sid, "go")
	got := map[string]string{}
	for _, ev := range events {
		got[ev.Author] = ev.Branch
	}
	if d := cmp.Diff(map[string]string{"child_a": "fanout.child_a", "child_b": "fanout.child_b"}, got); d != "" {
		t.Errorf("branches (-want +got):\n%s", d)
	}
	h.RunText(t, sid, "go again")
	// Each child sees the user turns and its own replies, never its sibling's.
	for n, m := range models {
		contents := et.Contents(m.Requests()[1].Contents)
		want := []string{"user: go", "model: from " + n, "user: go again"}
		if d := cmp.Diff(want, contents); d != "" {
			t.Errorf("child %s contents (-want +got):\n%s", n, d)
		}
	}
}

func TestBehaviorL9LoopEndsOnExitLoop(t *testing.T) {
	t.Parallel()
	worker := llm(t, "worker", "m-worker")
	checker := llm(t, "checker", "m-checker", func(c *llmagent.Config) { c.Tools = []runtime.Tool{tools.ExitLoop} })
	after := llm(t, "after", "m-after")
	loop, err := workflow.NewLoop(workflow.Config{Name: "loop", SubAgents: []runtime.Agent{worker, checker, after}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, loop)
	h.Models.Add(scripted.New("m-worker", et.Text("try 1"), et.Text("try 2")))
	h.Models.Add(scripted.New("m-checker", et.Text("not yet"), et.Call("exit_loop", `{}`)))
	afterModel := scripted.New("m-after", et.Text("between"))
	h.Models.Add(afterModel)
	sid := h.NewSession(t, nil)
	events := h.RunText(t, sid, "go")
	want := []string{
		"worker: try 1", "checker: not yet", "after: between",
		"worker: try 2", "checker: call exit_loop{}", `checker: response exit_loop{"result":null}`,
	}
	if d := cmp.Diff(want, et.Events(events)); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
	last := events[len(events)-1].Actions
	if !last.Escalate || !last.SkipSummarization {
		t.Errorf("exit_loop actions = %v", last)
	}
}

func TestBehaviorL9LoopMaxIterations(t *testing.T) {
	t.Parallel()
	worker := llm(t, "worker", "m")
	loop, err := workflow.NewLoop(workflow.Config{Name: "loop", SubAgents: []runtime.Agent{worker}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, loop)
	m := scripted.New("m", et.Text("1"), et.Text("2"), et.Text("3"), et.Text("4"))
	h.Models.Add(m)
	if events := h.RunText(t, h.NewSession(t, nil), "go"); len(events) != 3 || m.Remaining() != 1 {
		t.Errorf("events = %v, want 3 rounds", et.Events(events))
	}
}

func TestParallelFiftyChildren(t *testing.T) {
	t.Parallel()
	var children []runtime.Agent
	h := et.New(t, &placeholder{})
	for i := range 50 {
		name := fmt.Sprintf("c%02d", i)
		setter, err := tools.NewFunction(tools.FunctionConfig{Name: "note", Run: func(tctx *runtime.ToolContext, _ *structpbStruct) (any, error) {
			tctx.State().Set(name, strValue(name))
			return "ok", nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		children = append(children, llm(t, name, "m-"+name, func(c *llmagent.Config) { c.Tools = []runtime.Tool{setter} }))
		h.Models.Add(scripted.New("m-"+name, et.Call("note", `{}`), et.Text("done "+name)))
	}
	par, err := workflow.NewParallel(workflow.Config{Name: "fan", SubAgents: children})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := runtime.NewTree(par)
	if err != nil {
		t.Fatal(err)
	}
	h.Runner.App.Tree = tree
	sid := h.NewSession(t, nil)
	events := h.RunText(t, sid, "go")
	if len(events) != 150 {
		t.Fatalf("events = %d, want 150", len(events))
	}
	// Each child's events keep their own order.
	seen := map[string][]string{}
	for _, ev := range events {
		seen[ev.Author] = append(seen[ev.Author], et.Events([]*v1.Event{ev})[0])
	}
	for name, evs := range seen {
		want := []string{name + ": call note{}", name + `: response note{"result":"ok"}`, name + ": done " + name}
		if !slices.Equal(evs, want) {
			t.Errorf("%s events = %v", name, evs)
		}
	}
	if n := len(h.Session(t, sid).State.Fields); n != 50 {
		t.Errorf("state keys = %d, want 50", n)
	}
}
