package fakegemini

import (
	"strings"
	"testing"
)

func TestEchoAfterToolResults(t *testing.T) {
	t.Parallel()
	body := map[string]any{"contents": []any{
		map[string]any{"role": "user", "parts": []any{map[string]any{"text": "weather?"}}},
		map[string]any{"role": "model", "parts": []any{map[string]any{"functionCall": map[string]any{"name": "get_weather"}}}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
			"name": "get_weather", "response": map[string]any{"sky": "sunny"}}}}},
	}}
	info := inspect(body)
	if info.toolResults != `get_weather returned {"sky":"sunny"}` || info.lastUserText != "weather?" {
		t.Fatalf("info = %+v", info)
	}
	e := echo("m", info, false)
	if want := `"text":"Echo: get_weather returned {\"sky\":\"sunny\"}"`; !strings.Contains(string(e.response), want) {
		t.Errorf("echo = %s, want it to contain %s", e.response, want)
	}
}
