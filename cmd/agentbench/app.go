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

	"github.com/agentsvc/agentsvc/internal/loadclient"
)

// benchAgent is the agent of the bench app; %s is the remote tool.
const benchAgent = `# The agent agentbench runs: one model call per Run; on Connect, one call
# of the client's long-running tool.
name: bench_agent
model: gemini-2.5-flash
description: Answers questions about the weather.
instruction: Answer briefly. Use %s when asked about the weather.
tools:
  - name: %s
`

// writeApp writes dir/app/root_agent.yaml and returns its path.
func writeApp(dir, app, tool string) (string, error) {
	return loadclient.WriteApp(dir, app, fmt.Appendf(nil, benchAgent, tool, tool))
}

// scriptFake adds a rule to a fake Gemini server: every request that
// declares tools is answered with a call of tool; requests without tools
// keep the fake's default text answer.
func scriptFake(ctx context.Context, baseURL, tool string) error {
	call := map[string]any{"functionCall": map[string]any{"name": tool, "args": map[string]any{"city": "Paris"}}}
	script := map[string]any{"rules": []any{map[string]any{
		"tools": true,
		"response": map[string]any{"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{call}},
			"finishReason": "STOP",
		}}},
	}}}
	body, err := json.Marshal(script)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(baseURL, "/")+"/_fake/script", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("script the fake model: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return fmt.Errorf("script the fake model: %s: %s", resp.Status, msg)
	}
	return nil
}
