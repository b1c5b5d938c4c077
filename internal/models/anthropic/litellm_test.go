package anthropic_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
)

func mustStruct(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func userText(text string) *v1.Content {
	return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}
}

func weatherTool(t *testing.T) []*v1.Tool {
	t.Helper()
	return []*v1.Tool{{FunctionDeclarations: []*v1.FunctionDeclaration{{
		Name: "get_weather", Description: "Returns the weather.",
		Parameters: mustStruct(t, map[string]any{"type": "OBJECT", "properties": map[string]any{"city": map[string]any{"type": "STRING"}},
			"required": []any{"city"}}),
	}}}}
}

// toolTurns is a conversation in which the model called get_weather and
// the tool answered.
func toolTurns(t *testing.T) []*v1.Content {
	t.Helper()
	return []*v1.Content{
		userText("weather in Paris?"),
		{Role: "model", Parts: []*v1.Part{{Text: "Let me check."}, {FunctionCall: &v1.FunctionCall{Id: "toolu_1", Name: "get_weather",
			Args: mustStruct(t, map[string]any{"city": "Paris"})}}}},
		{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: "toolu_1", Name: "get_weather",
			Response: mustStruct(t, map[string]any{"city": "Paris", "forecast": "sunny ☀"})}}}},
	}
}

// decode parses a JSON document written in a test.
func decode(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatalf("bad test JSON: %v", err)
	}
	return m
}

const weatherToolJSON = `{"name": "get_weather", "description": "Returns the weather.", "type": "custom",
	"input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}`

// TestLiteLLMRequestBody checks the bodies against what adk-python 1.39.1
// and LiteLLM 1.83.14 send for the same requests.
func TestLiteLLMRequestBody(t *testing.T) {
	t.Parallel()
	sys := &v1.GenerateContentConfig{SystemInstruction: "You are helpful."}
	schema := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "integer", "minimum": 1}}, "required": []any{"a"}}
	temp := 0.5
	tests := []struct {
		name   string
		model  string
		args   anthropic.Args
		req    *v1.LlmRequest
		want   string
		header string
	}{{
		name: "plain",
		req:  &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}, Config: sys},
		want: `{"model": "claude-sonnet-4-5-20250929", "max_tokens": 64000, "system": [{"type": "text", "text": "You are helpful."}],
			"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]}`,
	}, {
		name: "empty contents and no instruction",
		req:  &v1.LlmRequest{},
		want: `{"model": "claude-sonnet-4-5-20250929", "max_tokens": 64000,
			"messages": [{"role": "user", "content": [{"type": "text", "text": "Handle the requests as specified in the System Instruction."}]}]}`,
	}, {
		name: "tool call and response",
		req:  &v1.LlmRequest{Contents: toolTurns(t), Config: &v1.GenerateContentConfig{SystemInstruction: "You are helpful.", Tools: weatherTool(t)}},
		want: `{"model": "claude-sonnet-4-5-20250929", "max_tokens": 64000, "system": [{"type": "text", "text": "You are helpful."}],
			"tools": [` + weatherToolJSON + `],
			"messages": [{"role": "user", "content": [{"type": "text", "text": "weather in Paris?"}]},
				{"role": "assistant", "content": [{"type": "text", "text": "Let me check."}, {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]},
				{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "{\"city\": \"Paris\", \"forecast\": \"sunny ☀\"}"}]}]}`,
	}, {
		name:   "output schema on a model with native structured output",
		req:    &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}, Config: &v1.GenerateContentConfig{ResponseSchema: mustStruct(t, schema)}},
		header: "structured-outputs-2025-11-13",
		want: `{"model": "claude-sonnet-4-5-20250929", "max_tokens": 64000,
			"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
			"output_format": {"type": "json_schema", "schema": {"type": "object", "additionalProperties": false, "required": ["a"],
				"properties": {"a": {"type": "integer", "description": "Note: minimum value: 1."}}}}}`,
	}, {
		name:  "output schema as a forced tool, args and config",
		model: "anthropic/claude-3-haiku-20240307",
		args:  anthropic.Args{Temperature: &temp, Stop: []string{"END"}},
		req: &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}, Config: &v1.GenerateContentConfig{
			ResponseSchema: mustStruct(t, schema), MaxOutputTokens: new(int32(100))}},
		want: `{"model": "claude-3-haiku-20240307", "max_tokens": 100, "temperature": 0.5, "stop_sequences": ["END"],
			"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
			"tools": [{"name": "json_tool_call", "input_schema": {"type": "object", "additionalProperties": false, "required": ["a"],
				"properties": {"a": {"type": "integer", "minimum": 1}}}}],
			"tool_choice": {"type": "tool", "name": "json_tool_call"}}`,
	}, {
		name: "a conversation that ends with the model",
		req:  &v1.LlmRequest{Contents: []*v1.Content{userText("hi"), {Role: "model", Parts: []*v1.Part{{Text: "hello"}, {Text: "thinking", Thought: true}}}}},
		want: `{"model": "claude-sonnet-4-5-20250929", "max_tokens": 64000,
			"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]},
				{"role": "assistant", "content": [{"type": "text", "text": "hello"}]},
				{"role": "user", "content": [{"type": "text", "text": "` + models.ContinueTurnText + `"}]}]}`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, fake := newLiteLLM(t, anthropic.Config{Model: tc.model, Args: tc.args}, jsonReply(t, http.StatusOK, message("end_turn", map[string]any{"type": "text", "text": "ok"})))
			if _, err := collect(t.Context(), m, tc.req, false); err != nil {
				t.Fatalf("GenerateContent: %v", err)
			}
			reqs := fake.recorded()
			if len(reqs) != 1 {
				t.Fatalf("requests = %d, want 1", len(reqs))
			}
			if reqs[0].Path != "/v1/messages" {
				t.Errorf("path = %q", reqs[0].Path)
			}
			if diff := cmp.Diff(decode(t, tc.want), reqs[0].Body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if got := reqs[0].Header.Get("Anthropic-Beta"); got != tc.header {
				t.Errorf("anthropic-beta = %q, want %q", got, tc.header)
			}
			if got := reqs[0].Header.Get("X-Api-Key"); got != "sk-test" {
				t.Errorf("x-api-key = %q", got)
			}
		})
	}
}

func TestLiteLLMResponse(t *testing.T) {
	t.Parallel()
	usage := &v1.UsageMetadata{PromptTokenCount: 10, CandidatesTokenCount: 5, TotalTokenCount: 15}
	tests := []struct {
		name   string
		model  string
		schema bool
		answer map[string]any
		want   *v1.LlmResponse
	}{{
		name:   "text and a call",
		answer: message("tool_use", map[string]any{"type": "text", "text": "Let me "}, map[string]any{"type": "text", "text": "check."}, map[string]any{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": map[string]any{"city": "Paris"}}),
		want: &v1.LlmResponse{ModelVersion: "claude-sonnet-4-5-20250929", FinishReason: "STOP", Partial: new(false), UsageMetadata: usage,
			Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Let me check."},
				{FunctionCall: &v1.FunctionCall{Id: "toolu_1", Name: "get_weather", Args: mustStruct(t, map[string]any{"city": "Paris"})}}}}},
	}, {
		name:   "cut at max tokens",
		answer: message("max_tokens", map[string]any{"type": "text", "text": "Par"}),
		want: &v1.LlmResponse{ModelVersion: "claude-sonnet-4-5-20250929", FinishReason: "MAX_TOKENS", Partial: new(false), UsageMetadata: usage,
			Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Par"}}}},
	}, {
		name:   "schema through json_tool_call",
		model:  "anthropic/claude-3-haiku-20240307",
		schema: true,
		answer: message("tool_use", map[string]any{"type": "tool_use", "id": "toolu_1", "name": "json_tool_call", "input": map[string]any{"a": 1}}),
		want: &v1.LlmResponse{ModelVersion: "claude-sonnet-4-5-20250929", FinishReason: "STOP", Partial: new(false), UsageMetadata: usage,
			Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: `{"a": 1}`}}}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newLiteLLM(t, anthropic.Config{Model: tc.model}, jsonReply(t, http.StatusOK, tc.answer))
			req := &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}
			if tc.schema {
				req.Config = &v1.GenerateContentConfig{ResponseSchema: mustStruct(t, map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "integer"}}})}
			}
			got, err := collect(t.Context(), m, req, false)
			if err != nil {
				t.Fatalf("GenerateContent: %v", err)
			}
			if diff := cmp.Diff([]*v1.LlmResponse{tc.want}, got, protocmp.Transform()); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}

// streamEvents is a streamed answer: text "Hello" in two deltas, then a
// get_weather call whose input comes in two deltas.
func streamEvents(t *testing.T) reply {
	t.Helper()
	return sseReply(t,
		map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-x",
			"content": []any{}, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}},
		map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}},
		map[string]any{"type": "ping"},
		map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "Hel"}},
		map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "lo"}},
		map[string]any{"type": "content_block_stop", "index": 0},
		map[string]any{"type": "content_block_start", "index": 1, "content_block": map[string]any{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": map[string]any{}}},
		map[string]any{"type": "content_block_delta", "index": 1, "delta": map[string]any{"type": "input_json_delta", "partial_json": `{"city": `}},
		map[string]any{"type": "content_block_delta", "index": 1, "delta": map[string]any{"type": "input_json_delta", "partial_json": `"Paris"}`}},
		map[string]any{"type": "content_block_stop", "index": 1},
		map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "tool_use"}, "usage": map[string]any{"output_tokens": 7}},
		map[string]any{"type": "message_stop"},
	)
}

// TestLiteLLMStream checks partial and final responses against what ADK's
// LiteLlm yields for the same events.
func TestLiteLLMStream(t *testing.T) {
	t.Parallel()
	m, fake := newLiteLLM(t, anthropic.Config{}, streamEvents(t))
	got, err := collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}, Config: &v1.GenerateContentConfig{Tools: weatherTool(t)}}, true)
	if err != nil {
		t.Fatalf("GenerateContent: %v", err)
	}
	const name = "claude-sonnet-4-5-20250929"
	partial := func(text string) *v1.LlmResponse {
		return &v1.LlmResponse{ModelVersion: name, Partial: new(true), Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: text}}}}
	}
	want := []*v1.LlmResponse{partial("Hel"), partial("lo"), {
		ModelVersion: name, Partial: new(false), FinishReason: "STOP",
		UsageMetadata: &v1.UsageMetadata{PromptTokenCount: 10, CandidatesTokenCount: 7, TotalTokenCount: 17},
		Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Hello"},
			{FunctionCall: &v1.FunctionCall{Id: "toolu_1", Name: "get_weather", Args: mustStruct(t, map[string]any{"city": "Paris"})}}}},
	}}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
	if reqs := fake.recorded(); len(reqs) != 1 || reqs[0].Body["stream"] != true {
		t.Errorf("requests = %+v, want one with stream true", reqs)
	}
}

func TestLiteLLMSchemaWithTools(t *testing.T) {
	t.Parallel()
	m, err := anthropic.NewLiteLLM(t.Context(), anthropic.Config{Model: "anthropic/claude-sonnet-4-5"})
	if err != nil {
		t.Fatal(err)
	}
	if sw, ok := m.(models.SchemaWithTools); !ok || !sw.OutputSchemaWithTools() {
		t.Error("LiteLlm models take an output schema with tools")
	}
	if m.Name() != "anthropic/claude-sonnet-4-5" {
		t.Errorf("Name = %q", m.Name())
	}
}
