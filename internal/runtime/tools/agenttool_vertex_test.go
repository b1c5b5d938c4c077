package tools_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// TestAgentToolVertexResponse: on Vertex AI, ADK declares an agent tool's
// result type: a string, or an object with an output schema.
func TestAgentToolVertexResponse(t *testing.T) {
	t.Setenv("GOOGLE_GENAI_USE_VERTEXAI", "true")
	agent, err := llmagent.New(llmagent.Config{Name: "helper", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	object, _ := structpb.NewStruct(map[string]any{"type": "object"})
	for _, out := range []*structpb.Struct{nil, object} {
		at, err := tools.NewAgentTool(tools.AgentToolConfig{Agent: agent, OutputSchema: out})
		if err != nil {
			t.Fatal(err)
		}
		want := "string"
		if out != nil {
			want = "object"
		}
		if got := at.Declaration().GetResponse().AsMap()["type"]; got != want {
			t.Errorf("output schema %v: response type %v, want %s", out, got, want)
		}
	}
}
