package openai_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/openai"
	"github.com/agentsvc/agentsvc/internal/retry"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// newFake starts a fake server and a model "openai/gpt-4o" talking to it.
func newFake(t *testing.T, cfg openai.Config) (*fakegemini.Server, models.Model) {
	t.Helper()
	fake := fakegemini.New()
	srv := httptest.NewServer(fake.Handler())
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	cfg.Name, cfg.Model, cfg.BaseURL, cfg.APIKey = "openai/gpt-4o", "gpt-4o", srv.URL+"/v1", "sk-test"
	cfg.HTTPClient = &http.Client{Transport: transport}
	if cfg.Retry.MaxAttempts == 0 {
		cfg.Retry = retry.Config{MaxAttempts: 3, InitialDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond,
			BackoffFactor: 2, Exceptions: models.TransientClasses}
	}
	m, err := openai.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fake, m
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// weatherRequest is a conversation with a tool call and its result.
func weatherRequest(t *testing.T) *v1.LlmRequest {
	t.Helper()
	req := &v1.LlmRequest{}
	err := protojson.Unmarshal([]byte(`{
	  "model": "openai/gpt-4o",
	  "contents": [
	    {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
	    {"role": "model", "parts": [{"functionCall": {"id": "call_1", "name": "get_weather", "args": {"city": "Paris"}}}]},
	    {"role": "user", "parts": [{"functionResponse": {"id": "call_1", "name": "get_weather", "response": {"city": "Paris", "forecast": "sunny"}}}]}
	  ],
	  "config": {
	    "systemInstruction": "Use the tools.",
	    "temperature": 0.5,
	    "tools": [{"functionDeclarations": [{"name": "get_weather", "description": "Weather of a city.",
	      "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}, "required": ["city"]}}]}]
	  }
	}`), req)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func collect(t *testing.T, m models.Model, req *v1.LlmRequest, stream bool) ([]*v1.LlmResponse, error) {
	t.Helper()
	var out []*v1.LlmResponse
	for r, err := range m.GenerateContent(t.Context(), req, stream) {
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

func TestRequestBodyAsLiteLlm(t *testing.T) {
	t.Parallel()
	fake, m := newFake(t, openai.Config{Body: map[string]any{"temperature": 0.2, "max_tokens": 100}})
	if _, err := collect(t, m, weatherRequest(t), false); err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" {
		t.Fatalf("requests = %+v", reqs)
	}
	var want map[string]any
	_ = json.Unmarshal([]byte(`{
	  "model": "gpt-4o",
	  "messages": [
	    {"role": "system", "content": "Use the tools."},
	    {"role": "user", "content": "Weather in Paris?"},
	    {"role": "assistant", "tool_calls": [{"type": "function", "id": "call_1",
	      "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
	    {"role": "tool", "tool_call_id": "call_1", "content": "{\"city\": \"Paris\", \"forecast\": \"sunny\"}"}
	  ],
	  "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather of a city.",
	    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
	  "temperature": 0.5,
	  "max_tokens": 100
	}`), &want)
	if d := cmp.Diff(want, reqs[0].Body); d != "" {
		t.Fatalf("body (-want +got):\n%s", d)
	}
}

func TestToolCallsAnswer(t *testing.T) {
	t.Parallel()
	fake, m := newFake(t, openai.Config{})
	if err := fake.EnqueueOpenAI(fakegemini.ProviderReply{JSON: raw(`{"id": "x", "object": "chat.completion", "model": "gpt-4o-2024",
	  "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null, "tool_calls": [
	    {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
	    {"id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": "{\"city\": \"Paris\"}"}}]}}],
	  "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}}`)}); err != nil {
		t.Fatal(err)
	}
	got, err := collect(t, m, weatherRequest(t), false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"content":{"role":"model","parts":[{"functionCall":{"id":"call_a","name":"get_weather","args":{"city":"Paris"}}},` +
		`{"functionCall":{"id":"call_b","name":"get_time","args":{"city":"Paris"}}}]},"finishReason":"STOP",` +
		`"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":3,"totalTokenCount":8},"modelVersion":"gpt-4o-2024","partial":false}`
	if len(got) != 1 {
		t.Fatalf("responses = %d, want 1", len(got))
	}
	assertJSON(t, want, got[0])
}

func assertJSON(t *testing.T, want string, got *v1.LlmResponse) {
	t.Helper()
	b, err := protojson.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var w, g any
	_ = json.Unmarshal([]byte(want), &w)
	_ = json.Unmarshal(b, &g)
	if d := cmp.Diff(w, g); d != "" {
		t.Fatalf("response (-want +got):\n%s", d)
	}
}

func TestStreamText(t *testing.T) {
	t.Parallel()
	_, m := newFake(t, openai.Config{})
	req := &v1.LlmRequest{Contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "hello there"}}}}}
	got, err := collect(t, m, req, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("responses = %d, want 2 partial and 1 final", len(got))
	}
	assertJSON(t, `{"content":{"role":"model","parts":[{"text":"Echo: "}]},"partial":true,"modelVersion":"gpt-4o"}`, got[0])
	assertJSON(t, `{"content":{"role":"model","parts":[{"text":"Echo: hello there"}]},"partial":false,"finishReason":"STOP",`+
		`"usageMetadata":{"promptTokenCount":2,"candidatesTokenCount":3,"totalTokenCount":5},"modelVersion":"gpt-4o"}`, got[2])
}

func TestStreamToolCallAssembled(t *testing.T) {
	t.Parallel()
	fake, m := newFake(t, openai.Config{})
	chunk := func(delta, finish string) json.RawMessage {
		return raw(`{"id":"c","object":"chat.completion.chunk","model":"gpt-4o","choices":[{"index":0,"delta":` + delta +
			`,"finish_reason":` + finish + `}]}`)
	}
	if err := fake.EnqueueOpenAI(fakegemini.ProviderReply{SSE: []json.RawMessage{
		chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_x","type":"function","function":{"name":"get_weather","arguments":""}}]}`, "null"),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"city\":"}}]}`, "null"),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":" \"Paris\"}"}}]}`, "null"),
		chunk(`{}`, `"tool_calls"`),
		raw(`{"id":"c","object":"chat.completion.chunk","model":"gpt-4o","choices":[],"usage":{"prompt_tokens":4,"completion_tokens":2,"total_tokens":6}}`),
		raw(`"[DONE]"`),
	}}); err != nil {
		t.Fatal(err)
	}
	got, err := collect(t, m, weatherRequest(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("responses = %d, want 1", len(got))
	}
	assertJSON(t, `{"content":{"role":"model","parts":[{"functionCall":{"id":"call_x","name":"get_weather","args":{"city":"Paris"}}}]},`+
		`"partial":false,"finishReason":"STOP","usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":2,"totalTokenCount":6},`+
		`"modelVersion":"gpt-4o"}`, got[0])
	if body := fake.Requests()[0].Body; body["stream"] != true || body["stream_options"] == nil {
		t.Fatalf("stream fields missing: %v", body)
	}
}

func TestErrorsAsModelErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status   int
		attempts int
		message  string
	}{
		{429, 3, "litellm.RateLimitError: RateLimitError: OpenAIException - Rate limit reached"},
		{500, 3, "litellm.InternalServerError: InternalServerError: OpenAIException - boom"},
		{400, 1, "litellm.BadRequestError: BadRequestError: OpenAIException - bad"},
	} {
		fake, m := newFake(t, openai.Config{})
		msg := map[int]string{429: "Rate limit reached", 500: "boom", 400: "bad"}[tc.status]
		body := raw(`{"error":{"message":"` + msg + `","type":"x","param":null,"code":null}}`)
		for range 3 {
			if err := fake.EnqueueOpenAI(fakegemini.ProviderReply{Status: tc.status, JSON: body}); err != nil {
				t.Fatal(err)
			}
		}
		_, err := collect(t, m, weatherRequest(t), false)
		var me *models.Error
		if !errors.As(err, &me) || me.HTTPStatus != tc.status || me.Message != tc.message {
			t.Fatalf("status %d: err = %v, want a models.Error with %q", tc.status, err, tc.message)
		}
		if n := len(fake.Requests()); n != tc.attempts {
			t.Fatalf("status %d: attempts = %d, want %d", tc.status, n, tc.attempts)
		}
	}
}

func TestResponseFormatStrict(t *testing.T) {
	t.Parallel()
	fake, m := newFake(t, openai.Config{})
	schema, _ := structpb.NewStruct(map[string]any{"type": "object", "properties": map[string]any{"b": map[string]any{"type": "string"},
		"a": map[string]any{"type": "integer"}}})
	req := &v1.LlmRequest{Contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "x"}}}},
		Config: &v1.GenerateContentConfig{ResponseSchema: schema, ResponseMimeType: "application/json"}}
	if _, err := collect(t, m, req, false); err != nil {
		t.Fatal(err)
	}
	var want any
	_ = json.Unmarshal([]byte(`{"type":"json_schema","json_schema":{"name":"response","strict":true,"schema":{"type":"object",
	  "properties":{"a":{"type":"integer"},"b":{"type":"string"}},"additionalProperties":false,"required":["a","b"]}}}`), &want)
	if d := cmp.Diff(want, fake.Requests()[0].Body["response_format"]); d != "" {
		t.Fatalf("response_format (-want +got):\n%s", d)
	}
}

func TestAzureRequest(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Clone(r.Context())
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"x","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"finish_reason":"stop",` +
			`"message":{"role":"assistant","content":"hi"}}]}`))
	}))
	defer srv.Close()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	m, err := openai.New(openai.Config{Name: "azure/dep", Model: "dep", BaseURL: srv.URL, APIKey: "az-key", Azure: true,
		APIVersion: "2024-10-21", HTTPClient: &http.Client{Transport: transport}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, m, weatherRequest(t), false); err != nil {
		t.Fatal(err)
	}
	if got.URL.Path != "/openai/deployments/dep/chat/completions" || got.URL.Query().Get("api-version") != "2024-10-21" ||
		got.Header.Get("Api-Key") != "az-key" || got.Header.Get("Authorization") != "" {
		t.Fatalf("request %s %v", got.URL, got.Header)
	}
}
