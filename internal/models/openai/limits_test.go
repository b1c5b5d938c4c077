package openai_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/openai"
)

// TestHostileAnswers checks that an answer past the call's limits, or one
// whose tool call carries arguments that are not a JSON object, fails the
// call with an error rather than reaching the engine.
func TestHostileAnswers(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 4096)
	textJSON := `{"id": "x", "object": "chat.completion", "model": "gpt-4o", "choices": [{"index": 0, "finish_reason": "stop",
	  "message": {"role": "assistant", "content": "` + big + `"}}]}`
	chunk := func(text string) json.RawMessage {
		return raw(`{"id": "x", "object": "chat.completion.chunk", "model": "gpt-4o", "choices": [{"index": 0, "delta": {"content": "` + text + `"}}]}`)
	}
	badArgs := func(args string) fakegemini.ProviderReply {
		b, _ := json.Marshal(args)
		return fakegemini.ProviderReply{JSON: raw(`{"id": "x", "object": "chat.completion", "model": "gpt-4o", "choices": [{"index": 0,
		  "finish_reason": "tool_calls", "message": {"role": "assistant", "tool_calls": [{"id": "call_a", "type": "function",
		  "function": {"name": "get_weather", "arguments": ` + string(b) + `}}]}}]}`)}
	}
	tests := []struct {
		name       string
		cfg        openai.Config
		reply      fakegemini.ProviderReply
		stream     bool
		wantStatus string
	}{
		{"response bytes", openai.Config{MaxResponseBytes: 1024}, fakegemini.ProviderReply{JSON: raw(textJSON)}, false, models.StatusResourceExhausted},
		{"streamed bytes", openai.Config{MaxResponseBytes: 1024},
			fakegemini.ProviderReply{SSE: []json.RawMessage{chunk("a"), chunk(big), raw(`"[DONE]"`)}}, true, models.StatusResourceExhausted},
		{"chunks", openai.Config{MaxChunks: 3},
			fakegemini.ProviderReply{SSE: []json.RawMessage{chunk("a"), chunk("b"), chunk("c"), chunk("d"), chunk("e"), raw(`"[DONE]"`)}}, true,
			models.StatusResourceExhausted},
		{"arguments that are not JSON", openai.Config{}, badArgs(`{"city": "Par`), false, ""},
		{"arguments that are not an object", openai.Config{}, badArgs(`[1, 2]`), false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fake, m := newFake(t, tc.cfg)
			if err := fake.EnqueueOpenAI(tc.reply, tc.reply, tc.reply); err != nil {
				t.Fatal(err)
			}
			got, err := collect(t, m, weatherRequest(t), tc.stream)
			if err == nil {
				t.Fatalf("the call succeeded with %v", got)
			}
			var merr *models.Error
			if tc.wantStatus != "" && (!errors.As(err, &merr) || merr.Status != tc.wantStatus) {
				t.Errorf("err = %v, want a model error %s", err, tc.wantStatus)
			}
		})
	}
}

// TestTimeout checks that a call past its timeout fails with
// DEADLINE_EXCEEDED.
func TestTimeout(t *testing.T) {
	t.Parallel()
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
	m, err := openai.New(openai.Config{Name: "openai/gpt-4o", Model: "gpt-4o", BaseURL: srv.URL + "/v1", APIKey: "sk-test",
		Timeout: 50 * time.Millisecond, HTTPClient: &http.Client{Transport: transport}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = collect(t, m, weatherRequest(t), false)
	var merr *models.Error
	if !errors.As(err, &merr) || merr.Status != models.StatusDeadlineExceeded {
		t.Errorf("err = %v, want a model error %s", err, models.StatusDeadlineExceeded)
	}
}
