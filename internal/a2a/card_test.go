package a2a

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// TestBehaviorAgentCard: the card of a sequential pipeline is ADK's
// AgentCardBuilder's (google-adk 1.39.1) but for the streaming capability
// the service declares.
func TestBehaviorAgentCard(t *testing.T) {
	t.Parallel()
	root := &api.AgentInfo{Name: "pipeline", AgentClass: "SequentialAgent", SubAgents: []*api.AgentInfo{
		{Name: "a", AgentClass: "LlmAgent", Description: "Finds facts.", Tools: []*api.ToolInfo{{Name: "get_weather", Description: "Returns the weather."}}},
		{Name: "b", AgentClass: "LlmAgent"},
	}}
	got, err := json.Marshal(BuildCard(root, "http://h:1/a2a/p/"))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"description":"An ADK Agent","name":"pipeline","preferredTransport":"JSONRPC","protocolVersion":"0.3.0","skills":[{"description":"First, this agent will Finds facts. Finally, this agent will execute the b agent.","id":"pipeline","name":"workflow","tags":["sequential_workflow"]},{"description":"Orchestrates: a: Finds facts.; b: No description","id":"pipeline-sub-agents","name":"sub-agents","tags":["sequential_workflow","orchestration"]},{"description":"Finds facts.","id":"a_a","name":"a: model","tags":["sub_agent:a","llm"]},{"description":"Returns the weather.","id":"a_a-get_weather","name":"a: get_weather","tags":["sub_agent:a","llm","tools"]},{"description":"An LLM-based agent","id":"b_b","name":"b: model","tags":["sub_agent:b","llm"]}],"url":"http://h:1/a2a/p","version":"0.0.1"}`
	var g, w any
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal([]byte(want), &w)
	if d := cmp.Diff(w, g); d != "" {
		t.Fatalf("card (-want +got):\n%s", d)
	}
}
