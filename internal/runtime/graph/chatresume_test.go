package graph_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// TestChatResumesPausedDelegation: a delegated task that asks the user
// (a long-running call) pauses the workflow; the answer resumes that task
// in its scope, at its path, before the coordinator runs again, and the
// coordinator never sees the task's question or its answer.
func TestChatResumesPausedDelegation(t *testing.T) {
	approve, err := tools.NewFunction(tools.FunctionConfig{Name: "approve", Description: "Asks for approval.", LongRunning: true,
		Parameters: enginetest.Struct(`{"type": "object", "properties": {}}`),
		Run:        func(*runtime.ToolContext, *structpb.Struct) (any, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	worker := mustAgent(t, llmagent.Config{Name: "worker", Model: "scripted", Mode: llmagent.ModeTask, Tools: []runtime.Tool{approve}})
	boss := mustAgent(t, llmagent.Config{Name: "boss", Model: "scripted", Mode: llmagent.ModeChat, SubAgents: []runtime.Agent{worker}})
	m := scripted.New("scripted",
		call("d1", "worker", `{"request": "ship it"}`),
		call("a1", "approve", `{}`),
		call("f1", "finish_task", `{"result": "shipped"}`),
		enginetest.Text("Shipped."))
	h := newApp(t, chatWorkflow(t, boss), m)
	sid := h.NewSession(t, nil)
	first := h.RunText(t, sid, "go")
	if got := enginetest.Events(first); len(got) < 2 || got[1] != "worker: call approve{} #a1" {
		t.Fatalf("first turn: %q", got)
	}
	answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: "a1", Name: "approve",
		Response: enginetest.Struct(`{"ok": true}`)}}}}
	second, err := h.Run(t.Context(), sid, answer, runtime.RunConfig{MaxLLMCalls: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"worker: call finish_task{\"result\":\"shipped\"} #f1",
		"worker: response finish_task{\"result\":\"Task completed.\"} #f1",
		"user: response worker{\"result\":\"shipped\"} #d1",
		"boss: Shipped.",
	}
	if got := enginetest.Events(second); !equalStrings(got, want) {
		t.Errorf("second turn:\n got %q\nwant %q", got, want)
	}
	for _, ev := range second[:2] {
		if ev.GetNodeInfo().GetPath() != "wf@1/boss@1/worker@d1" || ev.GetIsolationScope() != "d1" {
			t.Errorf("task event at %q scope %q", ev.GetNodeInfo().GetPath(), ev.GetIsolationScope())
		}
	}
	if p := second[3].GetNodeInfo().GetPath(); p != "wf@1/boss@1" {
		t.Errorf("coordinator path = %q", p)
	}
	reqs := m.Requests()
	wantTask := []string{`user: {"request": "ship it"}`, "model: call approve{} #a1", `user: response approve{"ok":true} #a1`}
	if got := enginetest.Contents(reqs[2].GetContents()); !equalStrings(got, wantTask) {
		t.Errorf("resumed task's request:\n got %q\nwant %q", got, wantTask)
	}
	wantBoss := []string{"user: go", `model: call worker{"request":"ship it"} #d1`, `user: response worker{"result":"shipped"} #d1`}
	if got := enginetest.Contents(reqs[3].GetContents()); !equalStrings(got, wantBoss) {
		t.Errorf("coordinator's request:\n got %q\nwant %q", got, wantBoss)
	}
}
