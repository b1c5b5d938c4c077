package anthropic_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// fastRetry is the Claude class's policy with short waits.
var fastRetry = retry.Config{MaxAttempts: 3, InitialDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, BackoffFactor: 2,
	Exceptions: models.TransientClasses}

// TestClaudeRequest checks the Vertex AI route and the bodies against what
// adk-python 1.39.1's Claude and the anthropic SDK 2.14 send.
func TestClaudeRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		req    *v1.LlmRequest
		stream bool
		reply  func(t *testing.T) reply
		path   string
		want   string
	}{{
		name: "tools",
		req: &v1.LlmRequest{Contents: []*v1.Content{userText("weather in Paris?")}, Config: &v1.GenerateContentConfig{SystemInstruction: "You are helpful.",
			Tools: weatherTool(t), ThinkingConfig: &v1.ThinkingConfig{ThinkingBudget: new(int32(2048))}}},
		reply: func(t *testing.T) reply {
			return jsonReply(t, http.StatusOK, message("end_turn", map[string]any{"type": "text", "text": "ok"}))
		},
		path: "/v1/projects/proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict",
		want: `{"max_tokens": 8192, "anthropic_version": "2026-10-21", "system": "You are helpful.",
			"messages": [{"role": "user", "content": [{"type": "text", "text": "weather in Paris?"}]}],
			"tool_choice": {"type": "auto"}, "thinking": {"type": "enabled", "budget_tokens": 2048},
			"tools": [{"name": "get_weather", "description": "Returns the weather.",
				"input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}`,
	}, {
		name: "history streamed, engine-made ids and no instruction",
		req: &v1.LlmRequest{Contents: func() []*v1.Content {
			c := toolTurns(t)
			c[1].Parts[1].FunctionCall.Id = "adk-123"
			c[2].Parts[0].FunctionResponse.Id = "adk-123"
			return c
		}()},
		stream: true,
		reply:  streamEvents,
		path:   "/v1/projects/proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict",
		want: `{"max_tokens": 8192, "anthropic_version": "2026-10-21", "system": null, "stream": true,
			"messages": [{"role": "user", "content": [{"type": "text", "text": "weather in Paris?"}]},
				{"role": "assistant", "content": [{"type": "text", "text": "Let me check."}, {"type": "tool_use", "id": "toolu_fallback_0", "name": "get_weather", "input": {"city": "Paris"}}]},
				{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_fallback_0", "content": "{\"city\": \"Paris\", \"forecast\": \"sunny \\u2600\"}", "is_error": false}]}]}`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, fake := newClaude(t, anthropic.Config{}, tc.reply(t))
			if _, err := collect(t.Context(), m, tc.req, tc.stream); err != nil {
				t.Fatalf("GenerateContent: %v", err)
			}
			reqs := fake.recorded()
			if len(reqs) != 1 {
				t.Fatalf("requests = %d, want 1", len(reqs))
			}
			if reqs[0].Path != tc.path {
				t.Errorf("path = %q, want %q", reqs[0].Path, tc.path)
			}
			if diff := cmp.Diff(decode(t, tc.want), reqs[0].Body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if got := reqs[0].Header.Get("Authorization"); got != "Bearer token" {
				t.Errorf("authorization = %q", got)
			}
		})
	}
}

// TestClaudeResponses checks what the Claude class yields: no finish
// reason and no model version, usage as input and output tokens.
func TestClaudeResponses(t *testing.T) {
	t.Parallel()
	m, _ := newClaude(t, anthropic.Config{}, streamEvents(t))
	got, err := collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, true)
	if err != nil {
		t.Fatalf("GenerateContent: %v", err)
	}
	partial := func(text string) *v1.LlmResponse {
		return &v1.LlmResponse{Partial: new(true), Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: text}}}}
	}
	want := []*v1.LlmResponse{partial("Hel"), partial("lo"), {
		Partial:       new(false),
		UsageMetadata: &v1.UsageMetadata{PromptTokenCount: 10, CandidatesTokenCount: 7, TotalTokenCount: 17},
		Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Hello"},
			{FunctionCall: &v1.FunctionCall{Id: "toolu_1", Name: "get_weather", Args: mustStruct(t, map[string]any{"city": "Paris"})}}}},
	}}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
	if sw, ok := m.(models.SchemaWithTools); !ok || sw.OutputSchemaWithTools() {
		t.Error("the Claude class takes no output schema with tools")
	}
}

// TestClaudeRetries checks that a rate-limited call is tried three times,
// as the anthropic SDK retries, and then fails with the API's error.
func TestClaudeRetries(t *testing.T) {
	t.Parallel()
	limited := jsonReply(t, http.StatusTooManyRequests, map[string]any{"type": "error", "error": map[string]any{"type": "rate_limit_error", "message": "slow down"}})
	m, fake := newClaude(t, anthropic.Config{Retry: fastRetry}, limited, limited, limited)
	_, err := collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, false)
	var merr *models.Error
	if !errors.As(err, &merr) || merr.HTTPStatus != 429 || merr.Status != "RESOURCE_EXHAUSTED" ||
		!strings.HasPrefix(merr.Message, "Error code: 429 - {") || !strings.Contains(merr.Message, "'message': 'slow down'") {
		t.Fatalf("err = %v, want a 429 model error", err)
	}
	if n := len(fake.recorded()); n != 3 {
		t.Errorf("requests = %d, want 3", n)
	}
}

func TestNewClaudeNeedsProjectAndLocation(t *testing.T) {
	t.Parallel()
	if _, err := anthropic.NewClaude(t.Context(), anthropic.Config{Model: "claude-x"}); err == nil {
		t.Error("NewClaude without project and location succeeded")
	}
}

// TestEchoFake checks the fake's default answer through both flavours,
// whole and streamed, as `make run` serves it offline.
func TestEchoFake(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		lite, _ := newLiteLLM(t, anthropic.Config{})
		vertex, _ := newClaude(t, anthropic.Config{})
		for _, m := range []models.Model{lite, vertex} {
			got, err := collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, stream)
			if err != nil {
				t.Fatalf("GenerateContent: %v", err)
			}
			if text := got[len(got)-1].GetContent().GetParts()[0].GetText(); text != "Echo: hi" {
				t.Errorf("%s stream=%v: text = %q, want the echo", m.Name(), stream, text)
			}
		}
	}
}
