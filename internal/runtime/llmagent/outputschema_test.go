package llmagent_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

func TestOutputSchemaWithToolsUsesSetModelResponse(t *testing.T) {
	t.Parallel()
	schema := et.Struct(`{"type":"object","properties":{"city":{"type":"string"},"temp":{"type":"number"}},"required":["city"]}`)
	agent := newAgent(t, llmagent.Config{OutputSchema: schema, OutputKey: "report", Tools: []runtime.Tool{echoTool(t, "echo")}})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{
		et.Call("echo", `{"q":"Paris"}`),
		et.Call("set_model_response", `{"city":"Paris","temp":21.5}`),
	})
	events := h.RunText(t, sid, "report")
	want := []string{
		`root_agent: call echo{"q":"Paris"}`,
		`root_agent: response echo{"echo":{"q":"Paris"}}`,
		`root_agent: call set_model_response{"city":"Paris","temp":21.5}`,
		`root_agent: response set_model_response{"city":"Paris","temp":21.5}`,
		`root_agent: {"city": "Paris", "temp": 21.5}`,
	}
	if d := cmp.Diff(want, et.Events(events)); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	if !runtime.IsFinalResponse(events[4]) || events[4].Content.Role != "model" {
		t.Errorf("structured answer is not a final model response: %v", events[4])
	}
	req := m.Requests()[0]
	if req.Config.ResponseSchema != nil || req.Config.ResponseMimeType != "" {
		t.Error("the response schema must not be sent with tools on this model")
	}
	decls := req.Config.Tools[0].FunctionDeclarations
	if decls[0].Name != "set_model_response" || decls[1].Name != "echo" {
		t.Errorf("declarations = %s, %s; want set_model_response first", decls[0].Name, decls[1].Name)
	}
	wantSI := `You are an agent. Your internal name is "root_agent".` + "\n\n" +
		"IMPORTANT: You have access to other tools, but you must provide your final response using the " +
		"set_model_response tool with the required structured format. After using any other tools needed to " +
		"complete the task, always call set_model_response with your final answer in the specified schema format."
	if req.Config.SystemInstruction != wantSI {
		t.Errorf("system instruction = %q", req.Config.SystemInstruction)
	}
	got := h.Session(t, sid).State.AsMap()["report"]
	if d := cmp.Diff(map[string]any{"city": "Paris", "temp": 21.5}, got); d != "" {
		t.Errorf("output_key value (-want +got):\n%s", d)
	}
}
