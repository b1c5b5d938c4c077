package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/loadclient"
)

// toolName is the client tool of the soak app.
const toolName = "record_visit"

// toolTrigger in a user message makes the scripted model call the tool.
const toolTrigger = "[tool]"

// soakAgent is the agent of the soak app.
const soakAgent = `# The agent agentsoak runs: a text answer on Run; on Connect, when the
# message asks for it, a call of the client's tool record_visit.
name: soak_agent
model: gemini-2.5-flash
description: Records visits.
instruction: Answer briefly. Use ` + toolName + ` when asked to.
tools:
  - name: ` + toolName + `
`

// writeApp writes dir/app/root_agent.yaml and returns its path.
func writeApp(dir, app string) (string, error) {
	return loadclient.WriteApp(dir, app, []byte(soakAgent))
}

// fakeControl drives the fake Gemini server through its control API (see
// package fakegemini). Every call is bounded by controlTimeout.
type fakeControl struct {
	base   string
	client *http.Client
}

const controlTimeout = 5 * time.Second

func newFakeControl(base string) *fakeControl {
	return &fakeControl{base: strings.TrimSuffix(base, "/"), client: &http.Client{Timeout: controlTimeout}}
}

// scriptLoad adds the rule the load needs: a request that declares tools
// and whose user message holds toolTrigger is answered with a call of the
// tool; everything else gets the fake's echo. The client tool answers with
// skip_summarization, so a turn has one model call after the tool's.
func (f *fakeControl) scriptLoad(ctx context.Context) error {
	tools := true
	call := map[string]any{"functionCall": map[string]any{"name": toolName, "args": map[string]any{"place": "Paris"}}}
	return f.post(ctx, "/_fake/script", fakegemini.Script{Rules: []fakegemini.Rule{{
		Contains: toolTrigger,
		Tools:    &tools,
		Item: fakegemini.Item{Response: map[string]any{"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{call}},
			"finishReason": "STOP",
		}}}},
	}}})
}

// setLatency sets the delay before every answer.
func (f *fakeControl) setLatency(ctx context.Context, d time.Duration) error {
	lat := fakegemini.Duration(d)
	return f.post(ctx, "/_fake/faults", fakegemini.Faults{Latency: &lat})
}

// failNext makes the next n model calls answer with an HTTP error.
func (f *fakeControl) failNext(ctx context.Context, n, code int, msg string) error {
	return f.post(ctx, "/_fake/faults", fakegemini.Faults{Fail: &fakegemini.Failure{Count: n,
		APIError: fakegemini.APIError{Code: code, Message: msg}}})
}

// queueEndless queues n answers that never end.
func (f *fakeControl) queueEndless(ctx context.Context, n int) error {
	chunk := map[string]any{"candidates": []any{map[string]any{
		"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": strings.Repeat("endless ", 64)}}},
	}}}
	items := make([]fakegemini.Item, n)
	for i := range items {
		items[i] = fakegemini.Item{Chunks: []any{chunk}, Forever: true}
	}
	return f.post(ctx, "/_fake/script", fakegemini.Script{Responses: items})
}

func (f *fakeControl) post(ctx context.Context, path string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, controlTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return fmt.Errorf("fake model %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return fmt.Errorf("fake model %s: %s: %s", path, resp.Status, msg)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return nil
}
