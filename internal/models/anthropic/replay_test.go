package anthropic_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/encoding/protojson"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
)

// TestRecordedResponses replays every successful answer of the anthropic_*
// and claude_* recordings and compares the adapter's final response with
// the model event adk-python stored for it (the events of the model's
// role that carry usage, in order): content, finish reason, model version,
// usage and partial.
func TestRecordedResponses(t *testing.T) {
	t.Parallel()
	n := 0
	for _, sc := range recordedScenarios() {
		name, dir, claude := sc.name, sc.dir, sc.claude
		var provider struct {
			Responses []reply `json:"responses"`
		}
		var session struct {
			Events []map[string]any `json:"events"`
		}
		var turns struct {
			Streaming string `json:"streaming"`
		}
		if !readJSON(t, filepath.Join(dir, "provider.json"), &provider) || !readJSON(t, filepath.Join(dir, "session.json"), &session) ||
			!readJSON(t, filepath.Join(dir, "turns.json"), &turns) {
			continue
		}
		var streamed []map[string]any
		readJSON(t, filepath.Join(dir, "stream.json"), &streamed)
		partials := partialGroups(streamed)
		var events []map[string]any
		for _, ev := range session.Events {
			if c, _ := ev["content"].(map[string]any); c["role"] == "model" && ev["usageMetadata"] != nil {
				events = append(events, ev)
			}
		}
		k := 0
		for _, rep := range provider.Responses {
			if rep.Status != 200 {
				continue
			}
			if k >= len(events) {
				t.Errorf("%s: more answers than model events", name)
				break
			}
			want := events[k]
			var wantPartials []map[string]any
			if k < len(partials) {
				wantPartials = partials[k]
			}
			k++
			n++
			t.Run(fmt.Sprintf("%s/%d", name, k), func(t *testing.T) {
				t.Parallel()
				got := replay(t, claude, rep, turns.Streaming == "sse")
				last := len(got) - 1
				if diff := cmp.Diff(eventFields(want), eventFields(got[last])); diff != "" {
					t.Errorf("final response (-stored event +adapter):\n%s", diff)
				}
				if turns.Streaming != "sse" {
					return
				}
				gotPartials := make([]map[string]any, last)
				for i, r := range got[:last] {
					gotPartials[i] = eventFields(r)
				}
				for i, p := range wantPartials {
					wantPartials[i] = eventFields(p)
				}
				if diff := cmp.Diff(wantPartials, gotPartials, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("partial responses (-streamed events +adapter):\n%s", diff)
				}
			})
		}
	}
	if n == 0 {
		t.Skip("no recordings of the Anthropic scenarios")
	}
}

func readJSON(t *testing.T, path string, v any) bool {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return true
}

// partialGroups splits the events a streamed run yielded into the partial
// events of each model answer, which ends at its final event (the one
// with usage).
func partialGroups(events []map[string]any) [][]map[string]any {
	var groups [][]map[string]any
	var cur []map[string]any
	for _, ev := range events {
		if c, _ := ev["content"].(map[string]any); c["role"] != "model" {
			continue
		}
		if ev["partial"] == true {
			cur = append(cur, ev)
			continue
		}
		if ev["usageMetadata"] != nil {
			groups = append(groups, cur)
			cur = nil
		}
	}
	return groups
}

// replay runs one call answered with rep and returns its responses as
// JSON.
func replay(t *testing.T, claude bool, rep reply, stream bool) []map[string]any {
	t.Helper()
	m, _ := newLiteLLM(t, anthropic.Config{}, rep)
	if claude {
		m, _ = newClaude(t, anthropic.Config{}, rep)
	}
	got, err := collect(t.Context(), m, &v1.LlmRequest{Contents: []*v1.Content{userText("hi")}}, stream)
	if err != nil || len(got) == 0 {
		t.Fatalf("GenerateContent = %d responses, %v", len(got), err)
	}
	out := make([]map[string]any, len(got))
	for i, r := range got {
		raw, err := protojson.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// eventFields keeps the fields a model response gives an event. A zero
// count of cached tokens, which ADK stores and a proto3 field does not
// render, is left out.
func eventFields(ev map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"content", "finishReason", "modelVersion", "usageMetadata", "partial"} {
		if v, ok := ev[k]; ok {
			out[k] = v
		}
	}
	if u, ok := out["usageMetadata"].(map[string]any); ok && u["cachedContentTokenCount"] == float64(0) {
		delete(u, "cachedContentTokenCount")
	}
	return out
}
