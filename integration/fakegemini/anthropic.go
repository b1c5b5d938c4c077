package fakegemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Anthropic is a local server speaking Anthropic's Messages API, for tests
// that run the real anthropic-sdk-go-based adapter without a network:
// POST /v1/messages (the Anthropic API) and POST
// /v1/projects/P/locations/L/publishers/anthropic/models/M:rawPredict or
// :streamRawPredict (Claude on Vertex AI). It answers with the queued
// replies in order (see [Anthropic.Enqueue]), then with an echo of the last
// user text, as JSON or as server-sent events when the body asks for a
// stream, and records every request. It is safe for concurrent use.
type Anthropic struct {
	// latency is waited before every answer: the [Server]'s, for the
	// Anthropic routes it serves.
	latency  time.Duration
	mu       sync.Mutex
	replies  []AnthropicReply
	requests []AnthropicRequest
}

// AnthropicReply is one scripted answer, in the form of the recordings'
// provider.json: a status with a JSON body, or with server-sent events.
type AnthropicReply struct {
	// Status is the HTTP status; zero means 200.
	Status int `json:"status,omitempty"`
	// JSON is the body of a JSON answer.
	JSON json.RawMessage `json:"json,omitempty"`
	// SSE are the events of a streamed answer, each written as
	// "event: <Event>" and "data: <Data as compact JSON>".
	SSE []AnthropicEvent `json:"sse,omitempty"`
}

// AnthropicEvent is one server-sent event.
type AnthropicEvent struct {
	Event string          `json:"event"`
	Data  json.RawMessage `json:"data"`
}

// AnthropicRequest is one request the server received.
type AnthropicRequest struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Body is the JSON body, parsed.
	Body map[string]any `json:"body"`
	// Header holds the request headers.
	Header http.Header `json:"-"`
}

// NewAnthropic returns a server with no queued replies.
func NewAnthropic() *Anthropic { return &Anthropic{} }

// Enqueue appends replies, answered in the order requests arrive.
func (a *Anthropic) Enqueue(replies ...AnthropicReply) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.replies = append(a.replies, replies...)
}

// Requests returns the recorded requests, oldest first.
func (a *Anthropic) Requests() []AnthropicRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]AnthropicRequest(nil), a.requests...)
}

// IsAnthropicPath reports whether path is a route of [Anthropic].
func IsAnthropicPath(path string) bool {
	return strings.HasSuffix(path, "/v1/messages") || strings.Contains(path, "/publishers/anthropic/models/")
}

// ServeHTTP answers one request.
func (a *Anthropic) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !IsAnthropicPath(r.URL.Path) {
		writeAnthropicError(w, http.StatusNotFound, "not_found_error", "no such route")
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	rec := AnthropicRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
	if err == nil {
		err = json.Unmarshal(raw, &rec.Body)
	}
	if err != nil {
		writeAnthropicError(w, http.StatusBadRequest, "invalid_request_error", "invalid JSON body")
		return
	}
	a.mu.Lock()
	a.requests = append(a.requests, rec)
	var reply *AnthropicReply
	if len(a.replies) > 0 {
		reply = &a.replies[0]
		a.replies = a.replies[1:]
	}
	a.mu.Unlock()
	if !sleep(r.Context(), a.latency) {
		return
	}
	stream := rec.Body["stream"] == true || strings.HasSuffix(r.URL.Path, ":streamRawPredict")
	if reply == nil {
		reply = anthropicEcho(rec.Body, stream)
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	if reply.SSE != nil {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(status)
		for _, ev := range reply.SSE {
			_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Event, compactJSON(ev.Data))
		}
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(pythonJSON(reply.JSON))
}

// pythonJSON writes raw as Python's json.dumps does by default, keys in
// their order: ", " and ": " between items, non-ASCII escaped, which is
// what the recordings' fake sent and so what LiteLLM quotes in its errors.
func pythonJSON(raw json.RawMessage) []byte {
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return raw
	}
	out := make([]byte, 0, compact.Len()+compact.Len()/8)
	inString, escaped := false, false
	for _, r := range compact.String() {
		switch {
		case inString && escaped:
			escaped = false
		case inString && r == '\\':
			escaped = true
		case r == '"':
			inString = !inString
		case !inString && (r == ',' || r == ':'):
			out = append(out, byte(r), ' ')
			continue
		}
		if r > 0x7f {
			for _, u := range utf16.Encode([]rune{r}) {
				out = fmt.Appendf(out, "\\u%04x", u)
			}
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func writeAnthropicError(w http.ResponseWriter, status int, typ, msg string) {
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// anthropicEcho answers "Echo: <last user text>" (the default answer of
// the Gemini routes), as one message or as the events of a stream.
func anthropicEcho(body map[string]any, stream bool) *AnthropicReply {
	text := "Echo: " + lastUserText(body)
	model, _ := body["model"].(string)
	usage := map[string]any{"input_tokens": 1, "output_tokens": len(strings.Fields(text))}
	if !stream {
		b, _ := json.Marshal(map[string]any{"id": "msg_echo", "type": "message", "role": "assistant", "model": model,
			"content": []any{map[string]any{"type": "text", "text": text}}, "stop_reason": "end_turn", "stop_sequence": nil, "usage": usage})
		return &AnthropicReply{JSON: b}
	}
	events := []map[string]any{
		{"type": "message_start", "message": map[string]any{"id": "msg_echo", "type": "message", "role": "assistant", "model": model,
			"content": []any{}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}},
		{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}},
		{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": text}},
		{"type": "content_block_stop", "index": 0},
		{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}, "usage": map[string]any{"output_tokens": usage["output_tokens"]}},
		{"type": "message_stop"},
	}
	r := &AnthropicReply{SSE: make([]AnthropicEvent, len(events))}
	for i, ev := range events {
		b, _ := json.Marshal(ev)
		r.SSE[i] = AnthropicEvent{Event: ev["type"].(string), Data: b}
	}
	return r
}

// lastUserText is the text of the last text block of the last user turn.
func lastUserText(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] != "user" {
			continue
		}
		blocks, _ := m["content"].([]any)
		for j := len(blocks) - 1; j >= 0; j-- {
			if b, _ := blocks[j].(map[string]any); b["type"] == "text" {
				s, _ := b["text"].(string)
				return s
			}
		}
		return ""
	}
	return ""
}

// handleOAuthToken answers an OAuth 2.0 token request with a token that
// lasts an hour, so that Google credentials whose token_uri names this
// server (an authorized_user file in GOOGLE_APPLICATION_CREDENTIALS) work
// without Google: Claude on Vertex AI runs against the fake through the
// SDK's real credential path.
func handleOAuthToken(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"access_token":"fake-token","token_type":"Bearer","expires_in":3600}`)
}
