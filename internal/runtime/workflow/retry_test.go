package workflow_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/workflow"
)

// TestRetryContinuesResumableInvocation fails a resumable pipeline in its
// second agent, then retries with the same request id: the retry continues
// the invocation from its checkpoints (the first agent is not run again);
// a retry after the pipeline's end replays it without a model call.
func TestRetryContinuesResumableInvocation(t *testing.T) {
	t.Parallel()
	seq, err := workflow.NewSequential(workflow.Config{Name: "pipeline",
		SubAgents: []runtime.Agent{llm(t, "drafter", "m-drafter"), llm(t, "publisher", "m-publisher")}})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, seq)
	h.Runner.App.Resumable = true
	drafter := scripted.New("m-drafter", et.Text("draft"))
	publisher := scripted.New("m-publisher")
	publisher.Push(scripted.Fail(errors.New("model down")), scripted.Response(et.Text("published")))
	h.Models.Add(drafter)
	h.Models.Add(publisher)
	sid := h.NewSession(t, nil)
	run := func() ([]*v1.Event, error) {
		var out []*v1.Event
		for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
			NewMessage: et.UserText("go"), RequestID: "r1", RunConfig: runtime.RunConfig{MaxLLMCalls: 10}}) {
			if err != nil {
				return out, err
			}
			out = append(out, ev)
		}
		return out, nil
	}
	first, err := run()
	if err == nil {
		t.Fatal("the first attempt did not fail")
	}
	inv := first[0].InvocationId

	second, err := run()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"publisher: published", "publisher: end", "pipeline: end"}
	if d := cmp.Diff(want, describeAll(second)); d != "" {
		t.Errorf("retry (-want +got):\n%s", d)
	}
	for _, ev := range second {
		if ev.InvocationId != inv {
			t.Errorf("retry event in invocation %s, want %s", ev.InvocationId, inv)
		}
	}
	if drafter.Calls() != 1 || publisher.Calls() != 2 {
		t.Errorf("model calls drafter=%d publisher=%d, want 1 and 2", drafter.Calls(), publisher.Calls())
	}

	third, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(describeAll(append(first, second...)), describeAll(third)); d != "" {
		t.Errorf("replay (-want +got):\n%s", d)
	}
	if drafter.Calls() != 1 || publisher.Calls() != 2 {
		t.Error("the replay called a model")
	}
	users := 0
	for _, ev := range h.Session(t, sid).Events {
		if ev.Author == "user" {
			users++
		}
	}
	if users != 1 {
		t.Errorf("stored user messages = %d, want 1", users)
	}
}
