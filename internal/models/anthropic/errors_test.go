package anthropic_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
)

func apiError(t *testing.T, status int, typ, msg string) reply {
	t.Helper()
	return jsonReply(t, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

// TestLiteLLMErrors checks that error answers become model errors with
// Gemini's status names and LiteLLM's wording, and that LiteLlm, like
// LiteLLM, tries once.
func TestLiteLLMErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		reply      func(t *testing.T) reply
		stream     bool
		wantStatus int
		wantName   string
		wantMsg    string
	}{
		{"rate limit", func(t *testing.T) reply { return apiError(t, 429, "rate_limit_error", "too many") }, false, 429, "RESOURCE_EXHAUSTED", "too many"},
		{"server error", func(t *testing.T) reply { return apiError(t, 500, "api_error", "boom") }, false, 500, "INTERNAL", "boom"},
		{"overloaded, streamed", func(t *testing.T) reply { return apiError(t, 529, "overloaded_error", "busy") }, true, 529, "UNAVAILABLE", "busy"},
		{"bad request", func(t *testing.T) reply { return apiError(t, 400, "invalid_request_error", "bad") }, false, 400, "INVALID_ARGUMENT", "bad"},
		{"not Anthropic's error JSON", func(t *testing.T) reply { return reply{Status: 502, JSON: []byte(`"gateway"`)} }, false, 502, "INTERNAL", `"gateway"`},
		{"error event inside a stream", func(t *testing.T) reply {
			return sseReply(t, map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": "Overloaded"}})
		}, true, 529, "UNAVAILABLE", "Overloaded"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, fake := newLiteLLM(t, anthropic.Config{}, tc.reply(t), tc.reply(t))
			_, err := collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, tc.stream)
			var merr *models.Error
			if !errors.As(err, &merr) {
				t.Fatalf("err = %v, want a model error", err)
			}
			if merr.HTTPStatus != tc.wantStatus || merr.Status != tc.wantName ||
				!strings.HasPrefix(merr.Message, "litellm.") || !strings.Contains(merr.Message, tc.wantMsg) {
				t.Errorf("error = %d %s %q, want %d %s %q", merr.HTTPStatus, merr.Status, merr.Message, tc.wantStatus, tc.wantName, tc.wantMsg)
			}
			if n := len(fake.recorded()); n != 1 {
				t.Errorf("requests = %d, want 1 (LiteLLM does not retry)", n)
			}
		})
	}
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	m, err := anthropic.NewLiteLLM(t.Context(), anthropic.Config{Model: "anthropic/claude-x", BaseURL: "http://127.0.0.1:1", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, false)
	if !errors.Is(err, models.ErrUnavailable) {
		t.Errorf("err = %v, want ErrUnavailable", err)
	}
}

// TestLimits checks that the caps of Config end a call with the model
// errors Gemini's adapter reports.
func TestLimits(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 4096)
	tests := []struct {
		name   string
		cfg    anthropic.Config
		stream bool
		want   string
	}{
		{"response bytes", anthropic.Config{MaxResponseBytes: 1024}, false, models.StatusResourceExhausted},
		{"streamed bytes", anthropic.Config{MaxResponseBytes: 1024}, true, models.StatusResourceExhausted},
		{"chunks", anthropic.Config{MaxChunks: 3}, true, models.StatusResourceExhausted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rep := jsonReply(t, http.StatusOK, message("end_turn", map[string]any{"type": "text", "text": big}))
			if tc.stream {
				rep = streamEvents(t)
				rep.SSE[3].Data = []byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + big + `"}}`)
			}
			m, _ := newLiteLLM(t, tc.cfg, rep)
			_, err := collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, tc.stream)
			var merr *models.Error
			if !errors.As(err, &merr) || merr.Status != tc.want {
				t.Errorf("err = %v, want status %s", err, tc.want)
			}
		})
	}
}

// TestTimeout checks that a call past its timeout fails with
// DEADLINE_EXCEEDED, and a caller that goes away gets its own error.
func TestTimeout(t *testing.T) {
	t.Parallel()
	// The server answers only when the client gives up.
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	t.Cleanup(func() { close(release) }) // runs first
	cfg := anthropic.Config{Model: "anthropic/claude-x", APIKey: "k", Timeout: 50 * time.Millisecond, BaseURL: srv.URL,
		HTTPClient: &http.Client{Transport: transport}}
	m, err := anthropic.NewLiteLLM(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, false)
	var merr *models.Error
	if !errors.As(err, &merr) || merr.Status != models.StatusDeadlineExceeded {
		t.Errorf("err = %v, want DEADLINE_EXCEEDED", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err = collect(ctx, m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, true); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestArgsValidate(t *testing.T) {
	t.Parallel()
	neg, big, zero := int64(-1), 2.5, int64(0)
	for _, a := range []anthropic.Args{{TopK: &neg}, {Temperature: &big}, {MaxTokens: &zero}, {ExtraHeaders: map[string]string{"a b": "c"}}} {
		if err := a.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", a)
		}
		if _, err := anthropic.NewLiteLLM(t.Context(), anthropic.Config{Model: "anthropic/x", Args: a}); err == nil {
			t.Errorf("NewLiteLLM with %+v succeeded", a)
		}
	}
	if _, err := anthropic.NewLiteLLM(t.Context(), anthropic.Config{}); !errors.Is(err, anthropic.ErrNoModel) {
		t.Errorf("NewLiteLLM without a model: %v", err)
	}
}

func TestArgsFromLiteLLM(t *testing.T) {
	t.Parallel()
	a, err := anthropic.ArgsFromLiteLLM(map[string]any{"max_completion_tokens": 100.0, "temperature": 0.2, "top_k": 5, "stop": "END",
		"metadata": map[string]any{"user_id": "u"}})
	if err != nil {
		t.Fatal(err)
	}
	m, fake := newLiteLLM(t, anthropic.Config{Args: a}, jsonReply(t, http.StatusOK, message("end_turn", map[string]any{"type": "text", "text": "ok"})))
	if _, err := collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, false); err != nil {
		t.Fatal(err)
	}
	got := fake.recorded()[0].Body
	want := decode(t, `{"model": "claude-sonnet-4-5-20250929", "max_tokens": 100, "temperature": 0.2, "top_k": 5, "stop_sequences": ["END"],
		"metadata": {"user_id": "u"}, "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	for _, bad := range []map[string]any{{"temperature": "hot"}, {"stop": []any{1}}, {"max_tokens": -1.0}} {
		if _, err := anthropic.ArgsFromLiteLLM(bad); err == nil {
			t.Errorf("ArgsFromLiteLLM(%v) = nil error", bad)
		}
	}
}
