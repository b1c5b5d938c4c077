package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
)

// reply is one canned answer of the fake, in the recordings' provider.json
// form: a JSON body, or server-sent events.
type reply struct {
	Status int             `json:"status"`
	JSON   json.RawMessage `json:"json,omitempty"`
	SSE    []sseEvent      `json:"sse,omitempty"`
}

type sseEvent struct {
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
}

// recorded is one request the fake received.
type recorded struct {
	Method string         `json:"method"`
	Path   string         `json:"path"`
	Body   map[string]any `json:"body"`
	Header http.Header    `json:"-"`
}

// fakeAnthropic is a Messages API server answering with scripted replies in
// order and recording the requests.
type fakeAnthropic struct {
	mu       sync.Mutex
	replies  []reply
	requests []recorded
}

func (f *fakeAnthropic) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	rec := recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
	_ = json.Unmarshal(raw, &rec.Body)
	f.mu.Lock()
	f.requests = append(f.requests, rec)
	var rep reply
	if len(f.replies) > 0 {
		rep, f.replies = f.replies[0], f.replies[1:]
	} else {
		rep = reply{Status: http.StatusInternalServerError, JSON: json.RawMessage(`{"type":"error","error":{"type":"api_error","message":"no reply scripted"}}`)}
	}
	f.mu.Unlock()
	if rep.SSE != nil {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(rep.Status)
		for _, ev := range rep.SSE {
			_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Event, compact(ev.Data))
		}
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.Status)
	_, _ = w.Write(rep.JSON)
}

func compact(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func (f *fakeAnthropic) recorded() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.requests...)
}

// start serves f and fills cfg's base URL and HTTP client to reach it.
func (f *fakeAnthropic) start(t *testing.T, cfg *anthropic.Config) {
	t.Helper()
	srv := httptest.NewServer(f)
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	cfg.BaseURL = srv.URL
	cfg.HTTPClient = &http.Client{Transport: transport}
}

// newLiteLLM returns a LiteLlm model on a fake answering replies.
func newLiteLLM(t *testing.T, cfg anthropic.Config, replies ...reply) (models.Model, *fakeAnthropic) {
	t.Helper()
	f := &fakeAnthropic{replies: replies}
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
func newClaude(t *testing.T, cfg anthropic.Config, replies ...reply) (models.Model, *fakeAnthropic) {
	t.Helper()
	f := &fakeAnthropic{replies: replies}
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
	r := reply{Status: http.StatusOK, SSE: []sseEvent{}}
	for _, ev := range events {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		r.SSE = append(r.SSE, sseEvent{Event: ev["type"].(string), Data: b})
	}
	return r
}
