package fakegemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The method recorded for an OpenAI Chat Completions request.
const methodChatCompletions = "chat.completions"

// ProviderReply is one scripted answer of the OpenAI Chat Completions
// routes: an HTTP status with a JSON body, or with server-sent events.
type ProviderReply struct {
	// Status is the HTTP status; zero means 200.
	Status int `json:"status,omitempty"`
	// JSON is the body of a JSON answer.
	JSON json.RawMessage `json:"json,omitempty"`
	// SSE are the events of a streamed answer, each written as one
	// "data: ..." event: a JSON string is written as its text (e.g.
	// "[DONE]"), anything else as compact JSON.
	SSE []json.RawMessage `json:"sse,omitempty"`
}

// EnqueueOpenAI appends answers for the OpenAI Chat Completions routes, in
// the order requests arrive. Without one, a request gets an echo answer.
func (s *Server) EnqueueOpenAI(replies ...ProviderReply) error {
	for i, r := range replies {
		if (r.JSON == nil) == (r.SSE == nil) {
			return errors.New("fakegemini.enqueue_openai: reply " + strconv.Itoa(i) + ": want exactly one of json and sse")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.openai = append(s.openai, replies...)
	return nil
}

// openAIRoutes serves POST .../chat/completions: OpenAI's path
// (/v1/chat/completions, or under any base path) and Azure OpenAI's
// (/openai/deployments/{deployment}/chat/completions).
func (s *Server) openAIRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /chat/completions", s.handleChatCompletions)
	mux.HandleFunc("POST /token", handleOAuthToken)
	mux.HandleFunc("POST /{prefix...}", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/chat/completions") {
			s.handleChatCompletions(w, r)
			return
		}
		if IsAnthropicPath(r.URL.Path) {
			s.anthropic.ServeHTTP(w, r)
			return
		}
		s.handleModel(w, r)
	})
}

// handleChatCompletions answers a Chat Completions request from the
// OpenAI queue, else with "Echo: <last user text>".
func (s *Server) handleChatCompletions(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		writeOpenAIError(w, http.StatusBadRequest, "cannot read the request body")
		return
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		writeOpenAIError(w, http.StatusBadRequest, "invalid JSON: "+err.Error())
		return
	}
	header := r.Header.Clone()
	hasKey := header.Get("Authorization") != "" || header.Get("Api-Key") != ""
	header.Del("Authorization")
	header.Del("Api-Key")
	model, _ := body["model"].(string)
	stream, _ := body["stream"].(bool)
	rec := Request{Model: model, Method: methodChatCompletions, Stream: stream, Path: r.URL.Path, Header: header,
		HasAPIKey: hasKey, Time: time.Now(), raw: raw, Answer: answerDefault}
	s.mu.Lock()
	var reply *ProviderReply
	if len(s.openai) > 0 {
		reply = &s.openai[0]
		s.openai = s.openai[1:]
		rec.Answer = answerQueue
	}
	latency := s.latency
	s.log.add(rec)
	s.mu.Unlock()
	if !sleep(r.Context(), latency) {
		return
	}
	if reply == nil {
		reply = openAIEcho(model, body, stream)
	}
	writeProviderReply(w, reply)
}

// writeProviderReply writes a scripted answer.
func writeProviderReply(w http.ResponseWriter, reply *ProviderReply) {
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	if reply.SSE == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(reply.JSON)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	flusher, _ := w.(http.Flusher)
	for _, ev := range reply.SSE {
		data := []byte(ev)
		var text string
		if json.Unmarshal(ev, &text) == nil {
			data = []byte(text)
		} else {
			var buf bytes.Buffer
			if json.Compact(&buf, ev) == nil {
				data = buf.Bytes()
			}
		}
		if _, err := w.Write(append(append([]byte("data: "), data...), "\n\n"...)); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

func writeOpenAIError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}})
	writeProviderReply(w, &ProviderReply{Status: status, JSON: b})
}

// openAIEcho is the default answer: "Echo: <last user text>", or after
// tool results "Echo: <results>", finished with "stop", with word counts
// as usage; streamed as two text chunks, a finish chunk, a usage chunk and
// [DONE].
func openAIEcho(model string, body map[string]any, stream bool) *ProviderReply {
	text := "Echo: " + lastOpenAIText(body)
	prompt := 0
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if c, ok := mm["content"].(string); ok {
			prompt += countWords(c)
		}
	}
	usage := map[string]any{"prompt_tokens": prompt, "completion_tokens": countWords(text), "total_tokens": prompt + countWords(text)}
	if !stream {
		b, _ := json.Marshal(map[string]any{"id": "chatcmpl-echo", "object": "chat.completion", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": text}}},
			"usage": usage})
		return &ProviderReply{JSON: b}
	}
	chunk := func(choices []any, usage any) json.RawMessage {
		m := map[string]any{"id": "chatcmpl-echo", "object": "chat.completion.chunk", "created": 0, "model": model, "choices": choices}
		if usage != nil {
			m["usage"] = usage
		}
		b, _ := json.Marshal(m)
		return b
	}
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": finish}}
	}
	return &ProviderReply{SSE: []json.RawMessage{
		chunk(delta(map[string]any{"role": "assistant", "content": "Echo: "}, nil), nil),
		chunk(delta(map[string]any{"content": strings.TrimPrefix(text, "Echo: ")}, nil), nil),
		chunk(delta(map[string]any{}, "stop"), nil),
		chunk([]any{}, usage),
		json.RawMessage(`"[DONE]"`),
	}}
}

// lastOpenAIText is the text of the last user message, or the results of
// the tool messages that end the conversation.
func lastOpenAIText(body map[string]any) string {
	msgs, _ := body["messages"].([]any)
	var results []string
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] == "tool" && len(results) == len(msgs)-1-i {
			c, _ := m["content"].(string)
			results = append([]string{c}, results...)
			continue
		}
		if len(results) > 0 {
			return strings.Join(results, "; ")
		}
		if m["role"] != "user" {
			continue
		}
		switch c := m["content"].(type) {
		case string:
			return c
		case []any:
			var sb strings.Builder
			for _, p := range c {
				pm, _ := p.(map[string]any)
				if t, ok := pm["text"].(string); ok {
					sb.WriteString(t)
				}
			}
			return sb.String()
		}
	}
	return strings.Join(results, "; ")
}
