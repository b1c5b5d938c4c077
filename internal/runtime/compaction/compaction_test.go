package compaction_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
)

// turn returns the events of invocation inv at time t: the user's question
// and the agent's answer.
func turn(inv string, t float64) []*v1.Event {
	return []*v1.Event{
		{InvocationId: inv, Author: "user", Timestamp: t, Content: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "q" + inv}}}},
		{InvocationId: inv, Author: "agent", Timestamp: t + 0.5, Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "a" + inv}}}},
	}
}

// summary returns a summary event covering [start, end].
func summary(start, end float64) *v1.Event {
	return &v1.Event{InvocationId: fmt.Sprint("s", end), Author: "user", Timestamp: end + 0.1,
		Actions: &v1.EventActions{Compaction: &v1.EventCompaction{StartTimestamp: start, EndTimestamp: end,
			CompactedContent: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "sum"}}}}}}
}

// invocations lists the invocations of events, once each, in order.
func invocations(events []*v1.Event) []string {
	var out []string
	for _, e := range events {
		if id := e.GetInvocationId(); len(out) == 0 || out[len(out)-1] != id {
			out = append(out, id)
		}
	}
	return out
}

// TestWindowSlides follows ADK's worked example: interval 2, overlap 1.
func TestWindowSlides(t *testing.T) {
	t.Parallel()
	var events []*v1.Event
	events = append(events, turn("1", 1)...)
	if w := compaction.Window(events, 2, 1); w != nil {
		t.Fatalf("after one invocation: window %v, want none", invocations(w))
	}
	events = append(events, turn("2", 2)...)
	w := compaction.Window(events, 2, 1)
	if d := cmp.Diff([]string{"1", "2"}, invocations(w)); d != "" {
		t.Fatalf("after two invocations (-want +got):\n%s", d)
	}
	events = append(events, summary(1, 2.5))
	events = append(events, turn("3", 3)...)
	if w := compaction.Window(events, 2, 1); w != nil {
		t.Fatalf("one new invocation after a summary: window %v, want none", invocations(w))
	}
	events = append(events, turn("4", 4)...)
	w = compaction.Window(events, 2, 1)
	if d := cmp.Diff([]string{"2", "3"}, invocations(w)[:2]); d != "" || len(w) != 6 {
		t.Fatalf("after four invocations: window %v (%d events), want invocations 2 to 4 without the summary", invocations(w), len(w))
	}
	if got := invocations(w); got[len(got)-1] != "4" {
		t.Errorf("window ends with invocation %s, want 4", got[len(got)-1])
	}
	// Overlap reaching past the first invocation starts at the first.
	if w := compaction.Window(events[:4], 2, 5); len(w) != 4 || w[0].GetInvocationId() != "1" {
		t.Errorf("large overlap: window %v", invocations(w))
	}
}

func TestPromptIsADKs(t *testing.T) {
	t.Parallel()
	events := append(turn("1", 1), &v1.Event{InvocationId: "1", Author: "agent", Content: &v1.Content{Role: "model",
		Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Name: "f"}}, {Text: "two"}, {Text: ""}}}})
	want := "The following is a conversation history between a user and an AI agent. Please summarize the " +
		"conversation, focusing on key information and decisions made, as well as any unresolved questions or " +
		"tasks. The summary should be concise and capture the essence of the interaction." +
		`\n\nuser: q1\nagent: a1\nagent: two`
	if got := compaction.Prompt(events); got != want {
		t.Errorf("prompt:\n%s\nwant\n%s", got, want)
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	events := append(turn("1", 1), turn("2", 2)...)
	usage := &v1.UsageMetadata{PromptTokenCount: 40, TotalTokenCount: 50}
	model := scripted.New("summarizer", &v1.LlmResponse{
		Content:       &v1.Content{Role: "assistant", Parts: []*v1.Part{{Text: "They asked twice."}}},
		UsageMetadata: usage,
	})
	ev, err := compaction.Summarize(t.Context(), model, events)
	if err != nil {
		t.Fatal(err)
	}
	c := ev.GetActions().GetCompaction()
	if ev.Author != "user" || ev.InvocationId == "" || ev.Content != nil || ev.UsageMetadata != usage ||
		c.GetStartTimestamp() != 1 || c.GetEndTimestamp() != 2.5 ||
		c.GetCompactedContent().GetRole() != "model" || c.GetCompactedContent().GetParts()[0].GetText() != "They asked twice." {
		t.Errorf("summary event = %v", ev)
	}
	reqs := model.Requests()
	if len(reqs) != 1 || reqs[0].Model != "summarizer" || len(reqs[0].Contents) != 1 ||
		reqs[0].Contents[0].Role != "user" || reqs[0].Contents[0].Parts[0].Text != compaction.Prompt(events) || reqs[0].Config != nil {
		t.Errorf("summarizer request = %v", reqs)
	}

	if ev, err := compaction.Summarize(t.Context(), scripted.New("m", &v1.LlmResponse{}), events); ev != nil || err != nil {
		t.Errorf("answer without content: %v, %v; want nothing", ev, err)
	}
	failing := scripted.New("m").Push(scripted.Fail(errors.New("quota")))
	if _, err := compaction.Summarize(t.Context(), failing, events); err == nil {
		t.Error("a failed model call gives no error")
	}
	if ev, err := compaction.Summarize(t.Context(), scripted.New("m"), nil); ev != nil || err != nil {
		t.Errorf("no events: %v, %v", ev, err)
	}
}
