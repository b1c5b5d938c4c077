package compaction_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
)

func textEvent(name string, t float64) *v1.Event {
	return &v1.Event{Author: "a", Timestamp: t, Content: &v1.Content{Parts: []*v1.Part{{Text: name}}}}
}

func callEvent(name, id string, t float64) *v1.Event {
	return &v1.Event{Author: "a", Timestamp: t, Content: &v1.Content{Parts: []*v1.Part{
		{Text: name}, {FunctionCall: &v1.FunctionCall{Id: id, Name: "f"}}}}}
}

func responseEvent(name, id string, t float64) *v1.Event {
	return &v1.Event{Author: "a", Timestamp: t, Content: &v1.Content{Parts: []*v1.Part{
		{Text: name}, {FunctionResponse: &v1.FunctionResponse{Id: id, Name: "f"}}}}}
}

func confirmEvent(name, id string, t float64) *v1.Event {
	return &v1.Event{Author: "a", Timestamp: t, Content: &v1.Content{Parts: []*v1.Part{{Text: name}}},
		Actions: &v1.EventActions{RequestedToolConfirmations: map[string]*v1.ToolConfirmation{id: {}}}}
}

// names lists the first text of each event.
func names(events []*v1.Event) []string {
	var out []string
	for _, e := range events {
		out = append(out, e.GetContent().GetParts()[0].GetText())
	}
	return out
}

// TestBehaviorTokenWindow checks the events a token-threshold summary
// covers, as google-adk 1.39.1's _events_to_compact_for_token_threshold
// selects them.
func TestBehaviorTokenWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		events []*v1.Event
		retain int
		want   []string
	}{
		{"retain the last", []*v1.Event{textEvent("q", 1), textEvent("a", 2), textEvent("q2", 3)}, 1, []string{"q", "a"}},
		{"retain none", []*v1.Event{textEvent("q", 1), textEvent("a", 2)}, 0, []string{"q", "a"}},
		{"too few", []*v1.Event{textEvent("q", 1), textEvent("a", 2)}, 2, nil},
		{"a kept response keeps its call", []*v1.Event{textEvent("q", 1), callEvent("c", "x", 2), responseEvent("r", "x", 3)}, 1,
			[]string{"q"}},
		{"stops before a pending call", []*v1.Event{textEvent("q", 1), callEvent("c", "x", 2), textEvent("t", 3), textEvent("u", 4)}, 1,
			[]string{"q"}},
		{"stops before an open confirmation", []*v1.Event{textEvent("q", 1), confirmEvent("c", "x", 2), textEvent("t", 3), textEvent("u", 4)}, 1,
			[]string{"q"}},
		{"a resolved confirmation is summarised", []*v1.Event{textEvent("q", 1), confirmEvent("c", "x", 2),
			responseEvent("r", "x", 3), textEvent("t", 4)}, 1, []string{"q", "c", "r"}},
		{"only after the latest summary, which seeds it", []*v1.Event{textEvent("q", 1), textEvent("a", 2), summary(1, 2),
			textEvent("q2", 3), textEvent("a2", 4)}, 1, []string{"sum", "q2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := compaction.TokenWindow(tt.events, tt.retain)
			if d := cmp.Diff(tt.want, names(got)); d != "" {
				t.Errorf("window (-want +got):\n%s", d)
			}
		})
	}
}

// TestBehaviorTokenWindowSeed checks the earlier summary that opens a new
// window: a model event at the earlier summary's start.
func TestBehaviorTokenWindowSeed(t *testing.T) {
	t.Parallel()
	events := []*v1.Event{textEvent("q", 1), textEvent("a", 2), summary(1, 2), summary(0.5, 2), textEvent("q2", 3), textEvent("a2", 4)}
	got := compaction.TokenWindow(events, 0)
	if len(got) != 3 || got[0].Author != "model" || got[0].Timestamp != 0.5 || got[0].InvocationId == "" {
		t.Fatalf("window = %v, want the covering summary (from 0.5) first", got)
	}
}

func TestLatestPromptTokens(t *testing.T) {
	t.Parallel()
	events := []*v1.Event{{UsageMetadata: &v1.UsageMetadata{PromptTokenCount: 9}}, textEvent("q", 1)}
	if n, ok := compaction.LatestPromptTokens(events); !ok || n != 9 {
		t.Errorf("LatestPromptTokens = %d, %v, want 9", n, ok)
	}
	if _, ok := compaction.LatestPromptTokens(events[1:]); ok {
		t.Error("LatestPromptTokens without usage reported a count")
	}
	if n, ok := compaction.EstimateTokens([]*v1.Content{{Parts: []*v1.Part{{Text: "ab"}, {Text: "héllo"}}}}); !ok || n != 1 {
		t.Errorf("EstimateTokens = %d, %v, want 7 characters / 4 = 1", n, ok)
	}
	if _, ok := compaction.EstimateTokens(nil); ok {
		t.Error("EstimateTokens of nothing reported a count")
	}
}
