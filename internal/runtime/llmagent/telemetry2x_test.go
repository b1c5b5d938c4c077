package llmagent_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// traced2x runs traced's tool turn in an app of behaviour b.
func traced2x(t *testing.T, b runtime.Behavior, content bool) ([]sdktrace.ReadOnlySpan, []*v1.Event) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	events := toolTurn(t, b, runtime.TelemetryConfig{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)), CaptureContent: content})
	return rec.Ended(), events
}

// toolTurn runs a two-step tool turn (the model calls echo, then answers)
// in an app of behaviour b with the telemetry of cfg.
func toolTurn(t *testing.T, b runtime.Behavior, cfg runtime.TelemetryConfig) []*v1.Event {
	t.Helper()
	tel, err := runtime.NewTelemetry(cfg)
	if err != nil {
		t.Fatal(err)
	}
	agent := newAgent(t, llmagent.Config{Tools: []runtime.Tool{echoTool(t, "echo")}})
	answer := et.Text("done")
	answer.FinishReason = "STOP"
	answer.UsageMetadata = &v1.UsageMetadata{PromptTokenCount: 12, CandidatesTokenCount: 3}
	h, _, sid := setup(t, agent, []*v1.LlmResponse{et.Call("echo", `{"x":"secret"}`), answer})
	withBehavior(h, b)
	h.Runner.Telemetry = tel
	return h.RunText(t, sid, "hi")
}

// TestTelemetrySpansByBehavior: a 1.x app's spans are ADK 1.x's (the
// invocation, call_llm around the tools it called); a 2.x app's are ADK
// 2.13's (invoke_workflow of the root, generate_content <model> beside the
// tools), with ADK 2.13's attributes.
func TestTelemetrySpansByBehavior(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		b    runtime.Behavior
		want []string
	}{
		{runtime.Behavior1x, []string{
			"- > invocation",
			"invocation > invoke_agent root_agent",
			"invoke_agent root_agent > call_llm",
			"call_llm > execute_tool echo",
			"invoke_agent root_agent > call_llm",
		}},
		{runtime.Behavior2x, []string{
			"- > invoke_workflow root_agent",
			"invoke_workflow root_agent > invoke_agent root_agent",
			"invoke_agent root_agent > generate_content " + modelName,
			"invoke_agent root_agent > execute_tool echo",
			"invoke_agent root_agent > generate_content " + modelName,
		}},
	} {
		spans, _ := traced2x(t, tc.b, false)
		if d := cmp.Diff(tc.want, spanTree(spans)); d != "" {
			t.Errorf("%v span tree (-want +got):\n%s", tc.b, d)
		}
	}
}

func TestTelemetry2xAttributes(t *testing.T) {
	t.Parallel()
	spans, events := traced2x(t, runtime.Behavior2x, true)
	byName := map[string][]map[string]string{}
	for _, s := range spans {
		byName[s.Name()] = append(byName[s.Name()], attrs(s))
	}
	sid := events[0].GetInvocationId()
	wf := byName["invoke_workflow root_agent"][0]
	conv := wf["gen_ai.conversation.id"]
	if d := cmp.Diff(map[string]string{
		"gen_ai.operation.name":  "invoke_workflow",
		"gen_ai.conversation.id": conv,
		"gen_ai.workflow.name":   "root_agent",
		"agentsvc.app":           "test_app",
		"user.id":                "test_user",
		"agentsvc.session_id":    conv,
	}, wf); d != "" || conv == "" {
		t.Errorf("invoke_workflow attributes (-want +got):\n%s", d)
	}
	calls := byName["generate_content "+modelName]
	last := calls[len(calls)-1]
	for k, v := range map[string]string{
		"gen_ai.operation.name":          "generate_content",
		"gen_ai.request.model":           modelName,
		"gen_ai.agent.name":              "root_agent",
		"gen_ai.conversation.id":         conv,
		"gen_ai.provider.name":           "gcp.gemini",
		"gcp.vertex.agent.invocation_id": sid,
		"gcp.vertex.agent.event_id":      events[2].Id,
		"gen_ai.usage.input_tokens":      "12",
		"gen_ai.usage.output_tokens":     "3",
		"gen_ai.response.finish_reasons": `["stop"]`,
		"gen_ai.tool.definitions":        `[{"name":"echo","description":"Echoes its arguments.","parameters":null,"type":"function"}]`,
	} {
		if last[k] != v {
			t.Errorf("generate_content %s = %q, want %q", k, last[k], v)
		}
	}
	if _, ok := last["gen_ai.system"]; ok {
		t.Errorf("generate_content has gen_ai.system: %v", last)
	}
	tool := byName["execute_tool echo"][0]
	for k, v := range map[string]string{
		"gen_ai.operation.name":      "execute_tool",
		"gen_ai.tool.name":           "echo",
		"gen_ai.agent.name":          "root_agent",
		"gen_ai.tool.call.arguments": `{"x":"secret"}`,
		"gen_ai.tool.call.result":    `{"echo":{"x":"secret"}}`,
		"gcp.vertex.agent.event_id":  events[1].Id,
	} {
		if tool[k] != v {
			t.Errorf("execute_tool %s = %q, want %q", k, tool[k], v)
		}
	}
	for _, k := range []string{"gcp.vertex.agent.llm_request", "gcp.vertex.agent.tool_call_args", "gcp.vertex.agent.tool_response"} {
		if _, ok := tool[k]; ok {
			t.Errorf("execute_tool has ADK 1.x's %s", k)
		}
	}
}
