package anthropic_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
)

// reply is one canned answer of the fake, in the recordings'
// provider.json form.
type reply = fakegemini.AnthropicReply

// recorded is one request the fake received.
type recorded = fakegemini.AnthropicRequest

// fakeAnthropic is the Messages API fake, with the requests it recorded.
type fakeAnthropic struct{ *fakegemini.Anthropic }

func (f fakeAnthropic) recorded() []recorded { return f.Requests() }

// start serves f and fills cfg's base URL and HTTP client to reach it.
func (f fakeAnthropic) start(t *testing.T, cfg *anthropic.Config) {
	t.Helper()
	srv := httptest.NewServer(f.Anthropic)
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	cfg.BaseURL = srv.URL
	cfg.HTTPClient = &http.Client{Transport: transport}
}

// newLiteLLM returns a LiteLlm model on a fake answering replies.
func newLiteLLM(t *testing.T, cfg anthropic.Config, replies ...reply) (models.Model, fakeAnthropic) {
	t.Helper()
	f := fakeAnthropic{fakegemini.NewAnthropic()}
	f.Enqueue(replies...)
	f.start(t, &cfg)
	if cfg.Model == "" {
		cfg.Model = "anthropic/claude-sonnet-4-5-20250929"
	}
	cfg.APIKey = "sk-test"
	m, err := anthropic.NewLiteLLM(t.Context(), cfg)
	if err != nil {
		t.Fatalf("NewLiteLLM: %v", err)
	}
	return m, f
}

// newClaude returns a Claude class model on a fake answering replies.
func newClaude(t *testing.T, cfg anthropic.Config, replies ...reply) (models.Model, fakeAnthropic) {
	t.Helper()
	f := fakeAnthropic{fakegemini.NewAnthropic()}
	f.Enqueue(replies...)
	f.start(t, &cfg)
	cfg.BaseURL += "/v1" // as ANTHROPIC_VERTEX_BASE_URL is written
	if cfg.Model == "" {
		cfg.Model = "claude-sonnet-4-5@20250929"
	}
	cfg.Project, cfg.Location = "proj", "us-east5"
	cfg.Credentials = &google.Credentials{TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "token"})}
	m, err := anthropic.NewClaude(t.Context(), cfg)
	if err != nil {
		t.Fatalf("NewClaude: %v", err)
	}
	return m, f
}

// collect runs one call and returns what it yielded.
func collect(ctx context.Context, m models.Model, req *v1.LlmRequest, stream bool) ([]*v1.LlmResponse, error) {
	var out []*v1.LlmResponse
	for resp, err := range m.GenerateContent(ctx, req, stream) {
		if err != nil {
			return out, err
		}
		out = append(out, resp)
	}
	return out, nil
}

// jsonReply is a 200 answer with body v.
func jsonReply(t *testing.T, status int, v any) reply {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return reply{Status: status, JSON: b}
}

// message is a whole answer with the given blocks and stop reason.
func message(stop string, blocks ...map[string]any) map[string]any {
	return map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
		"content": blocks, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5}}
}

// sseReply is a streamed answer of the given events.
func sseReply(t *testing.T, events ...map[string]any) reply {
	t.Helper()
	r := reply{Status: http.StatusOK, SSE: []fakegemini.AnthropicEvent{}}
	for _, ev := range events {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		r.SSE = append(r.SSE, fakegemini.AnthropicEvent{Event: ev["type"].(string), Data: b})
	}
	return r
}
