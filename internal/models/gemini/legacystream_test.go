package gemini_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
)

// describe prints a response as partial flag, parts, prompt tokens and
// finish reason.
func describe(r *v1.LlmResponse) string {
	var parts []string
	for _, p := range r.GetContent().GetParts() {
		switch {
		case p.GetFunctionCall() != nil:
			parts = append(parts, "call "+p.GetFunctionCall().GetName())
		case p.GetThought():
			parts = append(parts, "thought "+p.GetText())
		default:
			parts = append(parts, p.GetText())
		}
	}
	return fmt.Sprintf("partial=%v %q usage=%d finish=%s", r.GetPartial(), parts, r.GetUsageMetadata().GetPromptTokenCount(), r.GetFinishReason())
}

// TestBehaviorLegacyStreaming replays what google-adk 1.39.1 yields, over
// the Gemini SDK, with ADK_DISABLE_PROGRESSIVE_SSE_STREAMING=1 for a stream
// of "Hel", "lo", a function call, then "tail" with usage and STOP: text
// chunks partial, the merged text and the call each whole before the call
// runs, and a final response with the text after them.
func TestBehaviorLegacyStreaming(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t, gemini.Config{LegacyStreaming: true})
	err := fake.Enqueue(fakegemini.Stream(
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"lo"}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":1}}}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"tail"}]},"finishReason":"STOP"}],`+
			`"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":2,"totalTokenCount":7}}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	got, err := collect(t.Context(), t, p, userText("q"), true)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range got {
		lines = append(lines, describe(r))
	}
	want := []string{
		`partial=true ["Hel"] usage=0 finish=`,
		`partial=true ["lo"] usage=0 finish=`,
		`partial=false ["Hello"] usage=0 finish=`,
		`partial=false ["call f"] usage=0 finish=`,
		`partial=true ["tail"] usage=5 finish=STOP`,
		`partial=false ["tail"] usage=5 finish=STOP`,
	}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("responses (-want +got):\n%s", d)
	}
}

// TestLegacyStreamingThoughts checks that thought text is merged apart
// and comes first.
func TestLegacyStreamingThoughts(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t, gemini.Config{LegacyStreaming: true})
	err := fake.Enqueue(fakegemini.Stream(
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"a"}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"t","thought":true}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"b"}]},"finishReason":"STOP"}]}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	got, err := collect(t.Context(), t, p, userText("q"), true)
	if err != nil {
		t.Fatal(err)
	}
	if last := describe(got[len(got)-1]); last != `partial=false ["thought t" "ab"] usage=0 finish=STOP` {
		t.Errorf("final = %s", last)
	}
}
