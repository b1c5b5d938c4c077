package llmagent_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/planners"
)

// The facts below were observed on google-adk 1.39.1 with the genai SDK
// talking to the local fake Gemini server.

// transferText is what ADK's agent transfer adds for one sub-agent, helper.
const transferText = "\nYou have a list of other agents to transfer to:\n\n\nAgent name: helper\nAgent description: Helps.\n\n\n" +
	"If you are the best to answer the question according to your description,\nyou can answer it.\n\n" +
	"If another agent is better for answering the question according to its\ndescription, call `transfer_to_agent` " +
	"function to transfer the question to that\nagent. When transferring, do not generate any text other than the " +
	"function\ncall.\n\n**NOTE**: the only available agents for `transfer_to_agent` function are\n`helper`.\n"

// TestBehaviorPlanReActInFlow: the planning instruction comes after the
// identity and before the transfer instruction; the answer's final-answer
// split is what is streamed and stored, and output_key saves the answer
// without the thought.
func TestBehaviorPlanReActInFlow(t *testing.T) {
	t.Parallel()
	helper := newAgent(t, llmagent.Config{Name: "helper", Description: "Helps."})
	agent := newAgent(t, llmagent.Config{Name: "root", GlobalInstruction: "G.", Instruction: "I.", OutputKey: "answer",
		Planner: planners.PlanReAct{}, SubAgents: []runtime.Agent{helper}})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{et.Text("/*REASONING*/r/*FINAL_ANSWER*/final")})

	events := h.RunText(t, sid, "q")
	want := "G.\n\nI.\n\nYou are an agent. Your internal name is \"root\".\n\n" + planners.Instruction + "\n\n" + transferText
	if got := m.Requests()[0].GetConfig().GetSystemInstruction(); got != want {
		t.Errorf("system instruction =\n%q\nwant\n%q", got, want)
	}
	diffPairs(t, "events", et.Events(events), []string{"root: thought /*REASONING*/r/*FINAL_ANSWER*/", "root: final"})
	if got := h.Session(t, sid).GetState().AsMap()["answer"]; got != "final" {
		t.Errorf("state answer = %v, want final", got)
	}
}

// TestBehaviorPlanReActAfterModelCallback: the planner reworks what an
// after-model callback answers.
func TestBehaviorPlanReActAfterModelCallback(t *testing.T) {
	t.Parallel()
	swap := func(_ *runtime.CallbackContext, _ *v1.LlmResponse) (*v1.LlmResponse, error) {
		return et.Text("/*PLANNING*/from callback"), nil
	}
	agent := newAgent(t, llmagent.Config{Planner: planners.PlanReAct{},
		ModelCallbacks: runtime.ModelCallbacks{After: []runtime.AfterModelCallback{swap}}})
	h, _, sid := setup(t, agent, []*v1.LlmResponse{et.Text("swap")})
	diffPairs(t, "events", et.Events(h.RunText(t, sid, "q")), []string{"root_agent: thought /*PLANNING*/from callback"})
}

// TestBehaviorPlanReActStreaming: every partial chunk is reworked on its
// own, and the whole answer from the model's text as it came.
func TestBehaviorPlanReActStreaming(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Planner: planners.PlanReAct{}})
	h := et.New(t, agent)
	h.Models.Add(scripted.New(modelName).Push(
		scripted.Stream(et.Text("/*PLANNING*/p"), et.Text(" more\n/*FINAL_ANSWER*/x"))))
	sid := h.NewSession(t, nil)
	events, err := h.Run(t.Context(), sid, et.UserText("q"), runtime.RunConfig{Streaming: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range events {
		for _, line := range et.Events([]*v1.Event{ev}) {
			if ev.GetPartial() {
				line = "partial " + line
			}
			got = append(got, line)
		}
	}
	diffPairs(t, "events", got, []string{
		"partial root_agent: thought /*PLANNING*/p",
		"partial root_agent: thought  more\n/*FINAL_ANSWER*/",
		"partial root_agent: x",
		"root_agent: thought /*PLANNING*/p more\n/*FINAL_ANSWER*/",
		"root_agent: x",
	})
}

// TestBehaviorPlanReActHistory: later requests carry the earlier planning
// parts as plain text while the stored events keep them as thought; an
// answer that is all thought is left out of later requests.
func TestBehaviorPlanReActHistory(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Planner: planners.PlanReAct{}, Tools: []runtime.Tool{echoTool(t, "echo")}})
	plan := et.Text("/*PLANNING*/p")
	plan.Content.Parts = append(plan.Content.Parts, et.Call("echo", `{"x":1}`).Content.Parts...)
	h, m, sid := setup(t, agent, []*v1.LlmResponse{plan, et.Text("/*REASONING*/only thinking"), et.Text("ok")})
	h.RunText(t, sid, "q")
	h.RunText(t, sid, "again")
	reqs := m.Requests()
	diffPairs(t, "third request", et.Contents(reqs[2].Contents), []string{
		"user: q", "model: /*PLANNING*/p", `model: call echo{"x":1}`, `user: response echo{"echo":{"x":1}}`, "user: again",
	})
	stored := h.Session(t, sid).GetEvents()
	diffPairs(t, "stored", et.Events(stored), []string{
		"user: q", "root_agent: thought /*PLANNING*/p", `root_agent: call echo{"x":1}`,
		`root_agent: response echo{"echo":{"x":1}}`, "root_agent: thought /*REASONING*/only thinking", "user: again", "root_agent: ok",
	})
}

// TestBehaviorBuiltInPlannerInFlow: the planner's thinking config replaces
// the agent's, and the model's thought parts go back to it marked as
// thought in later requests; an all-thought answer is left out.
func TestBehaviorBuiltInPlannerInFlow(t *testing.T) {
	t.Parallel()
	tc := &v1.ThinkingConfig{IncludeThoughts: true, ThinkingBudget: proto.Int32(1024)}
	agent := newAgent(t, llmagent.Config{Instruction: "Be brief.", Planner: &planners.BuiltIn{ThinkingConfig: tc},
		GenerateContentConfig: &v1.GenerateContentConfig{Temperature: proto.Float32(0.5),
			ThinkingConfig: &v1.ThinkingConfig{ThinkingBudget: proto.Int32(100)}}})
	first := et.Text("Hello!")
	first.Content.Parts = append([]*v1.Part{{Text: "The user greets me.", Thought: true, ThoughtSignature: []byte("sig")}},
		first.Content.Parts...)
	onlyThought := &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Only thinking.", Thought: true}}}}
	h, m, sid := setup(t, agent, []*v1.LlmResponse{first, onlyThought, et.Text("Bye.")})
	for _, q := range []string{"hi", "think", "bye"} {
		h.RunText(t, sid, q)
	}
	reqs := m.Requests()
	for i, r := range reqs {
		if !proto.Equal(r.GetConfig().GetThinkingConfig(), tc) || r.GetConfig().GetTemperature() != 0.5 {
			t.Errorf("request %d config = %v, want the planner's thinking config and the agent's temperature", i, r.GetConfig())
		}
		if r.GetConfig().GetSystemInstruction() != "Be brief.\n\nYou are an agent. Your internal name is \"root_agent\"." {
			t.Errorf("request %d system instruction = %q", i, r.GetConfig().GetSystemInstruction())
		}
	}
	diffPairs(t, "third request", et.Contents(reqs[2].Contents), []string{
		"user: hi", "model: thought The user greets me.", "model: Hello!", "user: think", "user: bye",
	})
	if sig := reqs[2].Contents[1].Parts[0].GetThoughtSignature(); string(sig) != "sig" {
		t.Errorf("thought signature = %q, want sig", sig)
	}
}

// TestBehaviorPlanReActProfile: with adk_behavior "2.x" the app's answers
// are reworked as ADK 2.x does (tags stripped from the thoughts).
func TestBehaviorPlanReActProfile(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Planner: planners.PlanReAct{}, OutputKey: "answer"})
	h, _, sid := setup(t, agent, []*v1.LlmResponse{et.Text("/*REASONING*/r/*FINAL_ANSWER*/final")})
	withBehavior(h, runtime.Behavior2x)
	diffPairs(t, "events", et.Events(h.RunText(t, sid, "q")), []string{"root_agent: thought r", "root_agent: final"})
	if got := h.Session(t, sid).GetState().AsMap()["answer"]; got != "final" {
		t.Errorf("state answer = %v, want final", got)
	}
}
