package compaction_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
)

// TestPromptsMatchADK compares the summarizer prompts with those google-adk
// 1.39.1 and 2.13.0 built for the same events (testdata/prompt.py).
func TestPromptsMatchADK(t *testing.T) {
	t.Parallel()
	mustStruct := func(m map[string]any) *structpb.Struct {
		s, err := structpb.NewStruct(m)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ev := func(author string, parts ...*v1.Part) *v1.Event {
		return &v1.Event{Author: author, Content: &v1.Content{Role: "model", Parts: parts}}
	}
	events := []*v1.Event{
		ev("user", &v1.Part{Text: "Find the café in Zürich."}),
		ev("finder", &v1.Part{Text: "Let me look.", Thought: true}, &v1.Part{Text: "Looking."},
			&v1.Part{FunctionCall: &v1.FunctionCall{Name: "search", KeyOrder: []string{"query", "limit", "exact"},
				Args: mustStruct(map[string]any{"query": "café", "limit": 3, "exact": true})}}),
		ev("finder", &v1.Part{FunctionResponse: &v1.FunctionResponse{Name: "search",
			Response: mustStruct(map[string]any{"hits": []any{strings.Repeat("é", 2100)}, "more": nil})}}),
		ev("finder", &v1.Part{FunctionCall: &v1.FunctionCall{Name: "adk_request_credential",
			Args: mustStruct(map[string]any{"secret": "s3cret"})}}),
		ev("finder", &v1.Part{Text: "Found it."}),
	}
	for release, prompt := range map[string]func([]*v1.Event) string{
		"1.39.1": compaction.Prompt, "2.13.0": compaction.Prompt2x,
	} {
		b, err := os.ReadFile("testdata/prompt-adk-" + release + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if got := prompt(events); got != want {
			t.Errorf("prompt for ADK %s:\n got %q\nwant %q", release, got, want)
		}
	}
}
