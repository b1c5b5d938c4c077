package a2a

import (
	"encoding/json"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
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
	got, err := json.Marshal(BuildCard(root, "http://h:1/a2a/p/", CardOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"description":"An ADK Agent","name":"pipeline","preferredTransport":"JSONRPC","protocolVersion":"0.3.0","supportedInterfaces":[{"url":"http://h:1/a2a/p","protocolBinding":"JSONRPC","protocolVersion":"0.3.0"}],"skills":[{"description":"First, this agent will Finds facts. Finally, this agent will execute the b agent.","id":"pipeline","name":"workflow","tags":["sequential_workflow"]},{"description":"Orchestrates: a: Finds facts.; b: No description","id":"pipeline-sub-agents","name":"sub-agents","tags":["sequential_workflow","orchestration"]},{"description":"Finds facts.","id":"a_a","name":"a: model","tags":["sub_agent:a","llm"]},{"description":"Returns the weather.","id":"a_a-get_weather","name":"a: get_weather","tags":["sub_agent:a","llm","tools"]},{"description":"An LLM-based agent","id":"b_b","name":"b: model","tags":["sub_agent:b","llm"]}],"url":"http://h:1/a2a/p","version":"0.0.1"}`
	var g, w any
	_ = json.Unmarshal(got, &g)
	_ = json.Unmarshal([]byte(want), &w)
	if d := cmp.Diff(w, g); d != "" {
		t.Fatalf("card (-want +got):\n%s", d)
	}
}

// TestCardSkills: client tools, which cannot run over A2A, have no skill;
// a loop's skill states its max_iterations, "unlimited" when unset, as
// ADK's _build_loop_description does.
func TestCardSkills(t *testing.T) {
	t.Parallel()
	loop := func(name string) *api.AgentInfo {
		return &api.AgentInfo{Name: name, AgentClass: "LoopAgent", SubAgents: []*api.AgentInfo{
			{Name: "a", AgentClass: "LlmAgent", Tools: []*api.ToolInfo{{Name: "server_tool"}, {Name: "client_tool", Remote: true}}},
			{Name: "b", AgentClass: "LlmAgent", Description: "checks"},
		}}
	}
	tests := []struct {
		name     string
		root     *api.AgentInfo
		bounds   map[string]int
		wantLoop string
	}{
		{"bounded", loop("l"), map[string]int{"l": 3}, "This agent will execute the a agent and checks in a loop (max 3 iterations)."},
		{"unbounded", loop("l"), nil, "This agent will execute the a agent and checks in a loop (max unlimited iterations)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := BuildCard(tt.root, "http://h/a2a/l", CardOptions{MaxIterations: tt.bounds})
			var ids []string
			for _, s := range c.Skills {
				ids = append(ids, s.ID)
				if s.ID == "l" && s.Description != tt.wantLoop {
					t.Errorf("loop skill %q, want %q", s.Description, tt.wantLoop)
				}
			}
			want := []string{"l", "l-sub-agents", "a_a", "a_a-server_tool", "b_b"}
			if d := cmp.Diff(want, ids); d != "" {
				t.Errorf("skills (-want +got):\n%s", d)
			}
		})
	}
}

// TestCardSecurity: a card of a service that wants bearer tokens declares
// the scheme in A2A 0.3's form (type http, security) and 1.0's
// (httpAuthSecurityScheme, securityRequirements); client certificates add
// mutual TLS as another way in.
func TestCardSecurity(t *testing.T) {
	t.Parallel()
	root := &api.AgentInfo{Name: "x", AgentClass: "LlmAgent"}
	tests := []struct {
		name string
		opts CardOptions
		want string
	}{
		{"none", CardOptions{}, `{}`},
		{"bearer", CardOptions{Bearer: true}, `{"security":[{"bearer":[]}],"securityRequirements":[{"schemes":{"bearer":{"list":[]}}}],
			"securitySchemes":{"bearer":{"type":"http","scheme":"bearer","bearerFormat":"JWT","httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"}}}}`},
		{"bearer or certificate", CardOptions{Bearer: true, MutualTLS: true}, `{"security":[{"bearer":[]},{"mtls":[]}],
			"securityRequirements":[{"schemes":{"bearer":{"list":[]}}},{"schemes":{"mtls":{"list":[]}}}],
			"securitySchemes":{"bearer":{"type":"http","scheme":"bearer","bearerFormat":"JWT","httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"}},
			"mtls":{"type":"mutualTLS","mtlsSecurityScheme":{}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, err := json.Marshal(BuildCard(root, "http://h/a2a/x", tt.opts))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &a2a.AgentCard{}); err != nil {
				t.Fatalf("an A2A 0.3 client cannot read the card: %v", err)
			}
			var got, want map[string]any
			_ = json.Unmarshal(b, &got)
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			for k := range got {
				if k != "security" && k != "securitySchemes" && k != "securityRequirements" {
					delete(got, k)
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("security (-want +got):\n%s", d)
			}
		})
	}
}
