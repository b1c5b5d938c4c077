package gemini_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
)

func mustStruct(t testing.TB, js string) *structpb.Struct {
	t.Helper()
	s := &structpb.Struct{}
	if err := s.UnmarshalJSON([]byte(js)); err != nil {
		t.Fatalf("struct %s: %v", js, err)
	}
	return s
}

func mustMap(t *testing.T, js string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatalf("json %s: %v", js, err)
	}
	return m
}

func ptr[T any](v T) *T { return &v }

// toolRequest is a second-turn request: the user asked, the model called a
// tool, the tool answered.
func toolRequest(t *testing.T) *v1.LlmRequest {
	return &v1.LlmRequest{
		Model: "gemini-2.5-flash",
		Contents: []*v1.Content{
			{Role: "user", Parts: []*v1.Part{
				{Text: "What is the weather in Paris?"},
				{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte{1, 2, 3}, DisplayName: "map.png"}},
			}},
			{Role: "model", Parts: []*v1.Part{
				{Text: "checking", Thought: true, ThoughtSignature: []byte("sig")},
				{FunctionCall: &v1.FunctionCall{Id: "call-1", Name: "get_weather", Args: mustStruct(t, `{"city":"Paris"}`)}},
			}},
			{Role: "user", Parts: []*v1.Part{
				{FunctionResponse: &v1.FunctionResponse{Id: "call-1", Name: "get_weather", Response: mustStruct(t, `{"result":"sunny"}`)}},
			}},
		},
		Config: &v1.GenerateContentConfig{
			SystemInstruction: "You are a weather agent.\n\nBe brief.",
			Tools: []*v1.Tool{{FunctionDeclarations: []*v1.FunctionDeclaration{
				{
					Name:        "get_weather",
					Description: "Returns the weather.",
					Parameters: mustStruct(t, `{"type":"object","properties":{
						"city":{"type":"string","description":"City name."},
						"unit":{"type":["string","null"],"enum":["C","F"]},
						"days":{"type":"array","items":{"type":"integer","minimum":1},"minItems":1,"maxItems":7}},
						"required":["city"]}`),
				},
				{
					Name:       "lookup",
					Parameters: mustStruct(t, `{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false}`),
				},
			}}},
			ToolConfig:      &v1.ToolConfig{FunctionCallingConfig: &v1.FunctionCallingConfig{Mode: "AUTO"}},
			Temperature:     ptr[float32](0.5),
			MaxOutputTokens: ptr[int32](256),
			StopSequences:   []string{"END"},
			SafetySettings:  []*v1.SafetySetting{{Category: "HARM_CATEGORY_HARASSMENT", Threshold: "BLOCK_NONE", Method: "SEVERITY"}},
			ThinkingConfig:  &v1.ThinkingConfig{IncludeThoughts: true, ThinkingBudget: ptr[int32](1024)},
			Labels:          map[string]string{"adk_agent_name": "weather"},
		},
	}
}

func TestGenerateContentRequestConversion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		backend gemini.Backend
		path    string
		want    string
	}{
		{
			name: "gemini api drops labels, display names and safety method",
			path: "/v1beta/models/gemini-2.5-flash:generateContent",
			want: `{
				"contents": [
					{"role": "user", "parts": [{"text": "What is the weather in Paris?"}, {"inlineData": {"mimeType": "image/png", "data": "AQID"}}]},
					{"role": "model", "parts": [
						{"text": "checking", "thought": true, "thoughtSignature": "c2ln"},
						{"functionCall": {"id": "call-1", "name": "get_weather", "args": {"city": "Paris"}}}]},
					{"role": "user", "parts": [{"functionResponse": {"id": "call-1", "name": "get_weather", "response": {"result": "sunny"}}}]}
				],
				"systemInstruction": {"role": "user", "parts": [{"text": "You are a weather agent.\n\nBe brief."}]},
				"tools": [{"functionDeclarations": [
					{"name": "get_weather", "description": "Returns the weather.", "parameters": {
						"type": "OBJECT",
						"properties": {
							"city": {"type": "STRING", "description": "City name."},
							"unit": {"type": "STRING", "nullable": true, "enum": ["C", "F"]},
							"days": {"type": "ARRAY", "items": {"type": "INTEGER", "minimum": 1}, "minItems": 1, "maxItems": 7}
						},
						"required": ["city"]}},
					{"name": "lookup", "parametersJsonSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}}
				]}],
				"toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
				"safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}],
				"generationConfig": {
					"temperature": 0.5,
					"maxOutputTokens": 256,
					"stopSequences": ["END"],
					"thinkingConfig": {"includeThoughts": true, "thinkingBudget": 1024}
				}
			}`,
		},
		{
			name:    "vertex keeps labels, display names and safety method",
			backend: gemini.BackendVertexAI,
			path:    "/v1beta1/projects/proj/locations/europe-west1/publishers/google/models/gemini-2.5-flash:generateContent",
			want: `{
				"contents": [
					{"role": "user", "parts": [{"text": "What is the weather in Paris?"}, {"inlineData": {"mimeType": "image/png", "data": "AQID", "displayName": "map.png"}}]},
					{"role": "model", "parts": [
						{"text": "checking", "thought": true, "thoughtSignature": "c2ln"},
						{"functionCall": {"id": "call-1", "name": "get_weather", "args": {"city": "Paris"}}}]},
					{"role": "user", "parts": [{"functionResponse": {"id": "call-1", "name": "get_weather", "response": {"result": "sunny"}}}]}
				],
				"systemInstruction": {"role": "user", "parts": [{"text": "You are a weather agent.\n\nBe brief."}]},
				"tools": [{"functionDeclarations": [
					{"name": "get_weather", "description": "Returns the weather.", "parameters": {
						"type": "OBJECT",
						"properties": {
							"city": {"type": "STRING", "description": "City name."},
							"unit": {"type": "STRING", "nullable": true, "enum": ["C", "F"]},
							"days": {"type": "ARRAY", "items": {"type": "INTEGER", "minimum": 1}, "minItems": 1, "maxItems": 7}
						},
						"required": ["city"]}},
					{"name": "lookup", "parametersJsonSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": false}}
				]}],
				"toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
				"safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE", "method": "SEVERITY"}],
				"labels": {"adk_agent_name": "weather"},
				"generationConfig": {
					"temperature": 0.5,
					"maxOutputTokens": 256,
					"stopSequences": ["END"],
					"thinkingConfig": {"includeThoughts": true, "thinkingBudget": 1024}
				}
			}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := gemini.Config{Backend: tt.backend}
			if tt.backend == gemini.BackendVertexAI {
				cfg.Project, cfg.Location = "proj", "europe-west1"
			}
			fake, p := newFake(t, cfg)
			if err := fake.Enqueue(fakegemini.Reply(fakegemini.Text("It is sunny."))); err != nil {
				t.Fatal(err)
			}
			req := toolRequest(t)
			got, err := collect(t.Context(), t, p, req, false)
			if err != nil {
				t.Fatalf("GenerateContent: %v", err)
			}
			want := []*v1.LlmResponse{{
				Content:       &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "It is sunny."}}},
				FinishReason:  "STOP",
				UsageMetadata: &v1.UsageMetadata{CandidatesTokenCount: 3, TotalTokenCount: 3},
			}}
			if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
			reqs := fake.Requests()
			if len(reqs) != 1 {
				t.Fatalf("fake got %d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Path != tt.path || r.Model != "gemini-2.5-flash" || r.Stream {
				t.Errorf("request path %q model %q stream %v, want %q gemini-2.5-flash false", r.Path, r.Model, r.Stream, tt.path)
			}
			if diff := cmp.Diff(mustMap(t, tt.want), r.Body); diff != "" {
				t.Errorf("request body (-want +got):\n%s", diff)
			}
			if tt.backend != gemini.BackendVertexAI && (!r.HasAPIKey || r.Header.Get("X-Goog-Api-Key") != "") {
				t.Errorf("api key: has %v, recorded header %q; want sent and not recorded", r.HasAPIKey, r.Header.Get("X-Goog-Api-Key"))
			}
			if !sameRequest(req, toolRequest(t)) {
				t.Errorf("GenerateContent changed the request")
			}
		})
	}
}

func sameRequest(a, b *v1.LlmRequest) bool {
	return cmp.Diff(a, b, protocmp.Transform()) == ""
}

func TestGenerateContentAppendsUserTurn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		contents []*v1.Content
		wantLast string
	}{
		{name: "no contents", wantLast: "Handle the requests as specified in the System Instruction."},
		{
			name:     "model turn last",
			contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "hi"}}}, {Role: "model", Parts: []*v1.Part{{Text: "hello"}}}},
			wantLast: "Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed.",
		},
		{
			name:     "user turn last",
			contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "hi"}}}},
			wantLast: "hi",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, p := newFake(t, gemini.Config{})
			req := &v1.LlmRequest{Model: "m", Contents: tt.contents}
			got, err := collect(t.Context(), t, p, req, false)
			if err != nil {
				t.Fatalf("GenerateContent: %v", err)
			}
			if text := got[0].GetContent().GetParts()[0].GetText(); text != "Echo: "+tt.wantLast {
				t.Errorf("echo %q, want %q", text, "Echo: "+tt.wantLast)
			}
			var body struct {
				Contents []struct {
					Role string `json:"role"`
				} `json:"contents"`
			}
			if err := fake.Requests()[0].Decode(&body); err != nil {
				t.Fatal(err)
			}
			if n := len(body.Contents); n == 0 || body.Contents[n-1].Role != "user" {
				t.Errorf("last content %+v, want a user turn", body.Contents)
			}
		})
	}
}
