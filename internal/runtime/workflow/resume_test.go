package workflow_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
	"github.com/agentsvc/agentsvc/internal/runtime/workflow"
)

// describe renders an event with its checkpoint actions.
func describe(ev *v1.Event) string {
	a := ev.GetActions()
	switch {
	case a.GetEndOfAgent():
		return ev.Author + ": end"
	case a.GetAgentState() != nil:
		b, _ := a.GetAgentState().MarshalJSON()
		return ev.Author + ": state " + string(b)
	}
	return et.Events([]*v1.Event{ev})[0]
}

func describeAll(events []*v1.Event) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = describe(ev)
	}
	return out
}

func TestBehaviorL10PauseAndResume(t *testing.T) {
	t.Parallel()
	approve, err := tools.NewFunction(tools.FunctionConfig{Name: "approve", LongRunning: true,
		Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	first := llm(t, "drafter", "m-drafter")
	approver := llm(t, "approver", "m-approver", func(c *llmagent.Config) { c.Tools = []runtime.Tool{approve} })
	last := llm(t, "publisher", "m-publisher")
	seq, err := workflow.NewSequential(workflow.Config{Name: "pipeline", SubAgents: []runtime.Agent{first, approver, last}})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, seq)
	h.Runner.App.Resumable = true
	drafter := scripted.New("m-drafter", et.Text("draft"))
	approverModel := scripted.New("m-approver", et.Call("approve", `{}`), et.Text("approved"))
	publisher := scripted.New("m-publisher", et.Text("published"))
	for _, m := range []*scripted.Model{drafter, approverModel, publisher} {
		h.Models.Add(m)
	}
	sid := h.NewSession(t, nil)

	events := h.RunText(t, sid, "go")
	want := []string{
		`pipeline: state {"current_sub_agent":"drafter"}`, "drafter: draft", "drafter: end",
		`pipeline: state {"current_sub_agent":"approver"}`, "approver: call approve{}",
	}
	if d := cmp.Diff(want, describeAll(events)); d != "" {
		t.Fatalf("first run (-want +got):\n%s", d)
	}
	inv := events[0].InvocationId
	call := events[len(events)-1].Content.Parts[0].FunctionCall

	answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
		Id: call.Id, Name: "approve", Response: et.Struct(`{"status":"ok"}`)}}}}
	var resumed []*v1.Event
	for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
		NewMessage: answer, InvocationID: inv, RunConfig: runtime.RunConfig{MaxLLMCalls: 10}}) {
		if err != nil {
			t.Fatal(err)
		}
		resumed = append(resumed, ev)
	}
	want = []string{
		"approver: approved", "approver: end",
		`pipeline: state {"current_sub_agent":"publisher"}`, "publisher: published", "publisher: end",
		"pipeline: end",
	}
	if d := cmp.Diff(want, describeAll(resumed)); d != "" {
		t.Errorf("resumed run (-want +got):\n%s", d)
	}
	for _, ev := range resumed {
		if ev.InvocationId != inv {
			t.Errorf("resumed event in invocation %s, want %s", ev.InvocationId, inv)
		}
	}
	if drafter.Calls() != 1 || approverModel.Calls() != 2 || publisher.Calls() != 1 {
		t.Errorf("model calls drafter=%d approver=%d publisher=%d: finished work was redone",
			drafter.Calls(), approverModel.Calls(), publisher.Calls())
	}

	// Resuming a finished invocation runs nothing; a non-resumable app refuses.
	again, err := collect(h, sid, et.UserText("again"), inv)
	if err != nil || len(again) != 0 {
		t.Errorf("resuming a finished invocation: %v, %v", describeAll(again), err)
	}
	h.Runner.App.Resumable = false
	_, err = collect(h, sid, et.UserText("x"), inv)
	if err == nil {
		t.Error("resuming on a non-resumable app must fail")
	}
}

func collect(h *et.Harness, sid string, msg *v1.Content, inv string) ([]*v1.Event, error) {
	var out []*v1.Event
	for ev, err := range h.Runner.Run(context.Background(), runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: msg, InvocationID: inv}) {
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
	return out, nil
}
