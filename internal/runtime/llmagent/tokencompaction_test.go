package llmagent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// withPrompt returns text as a model response reporting prompt tokens.
func withPrompt(text string, prompt int32) *v1.LlmResponse {
	r := et.Text(text)
	r.UsageMetadata = &v1.UsageMetadata{PromptTokenCount: prompt}
	return r
}

// summarized returns the texts the summarizer prompt lists.
func summarized(prompt string) []string {
	_, history, _ := strings.Cut(prompt, `\n\n`)
	return strings.Split(history, `\n`)
}

// TestBehaviorTokenThresholdCompaction follows google-adk 1.39.1 with
// token_threshold 100, event_retention_size 1 and a sliding window of 2
// invocations: after the second invocation, whose prompt reported 150
// tokens, the events before the last one are summarised (start and end are
// the first and last summarised events' timestamps) and the sliding window,
// though due, is skipped. The third invocation's summary starts with the
// previous summary (as a model event at its start) and covers the raw
// events after it, the last one kept.
func TestBehaviorTokenThresholdCompaction(t *testing.T) {
	t.Parallel()
	h := et.New(t, newAgent(t, llmagent.Config{}))
	h.Runner.App.Compaction = &compaction.Config{Interval: 2, Overlap: 0, Model: modelName, TokenThreshold: 100, Retention: 1}
	m := scripted.New(modelName, withPrompt("r1", 50), withPrompt("r2", 150), withPrompt("SUM1", 7),
		withPrompt("r3", 160), withPrompt("SUM2", 8))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)

	h.RunText(t, sid, "one")
	if n := len(h.Session(t, sid).Events); n != 2 {
		t.Fatalf("after a 50-token prompt: %d events, want 2 (no summary)", n)
	}
	h.RunText(t, sid, "two")
	stored := h.Session(t, sid).Events
	if len(stored) != 5 {
		t.Fatalf("after a 150-token prompt: %v, want one summary", et.Events(stored))
	}
	c := stored[4].GetActions().GetCompaction()
	if c == nil || stored[4].Author != "user" || c.GetStartTimestamp() != stored[0].Timestamp || c.GetEndTimestamp() != stored[2].Timestamp {
		t.Fatalf("summary = %v, want one covering [one, r1, two]", stored[4])
	}
	if d := cmp.Diff([]string{"user: one", "root_agent: r1", "user: two"}, summarized(m.Requests()[2].Contents[0].Parts[0].Text)); d != "" {
		t.Errorf("first summary covers (-want +got):\n%s", d)
	}

	h.RunText(t, sid, "three")
	reqs := m.Requests()
	if d := cmp.Diff([]string{"model: SUM1", "model: r2", "user: three"}, et.Contents(reqs[3].Contents)); d != "" {
		t.Errorf("third request contents (-want +got):\n%s", d)
	}
	stored = h.Session(t, sid).Events
	if len(stored) != 8 {
		t.Fatalf("after the third invocation: %v, want a second summary", et.Events(stored))
	}
	c2 := stored[7].GetActions().GetCompaction()
	if c2 == nil || c2.GetStartTimestamp() != c.GetStartTimestamp() || c2.GetEndTimestamp() != stored[5].Timestamp {
		t.Fatalf("second summary = %v, want one from the first summary's start to \"three\"", stored[7])
	}
	if d := cmp.Diff([]string{"model: SUM1", "root_agent: r2", "user: three"}, summarized(reqs[4].Contents[0].Parts[0].Text)); d != "" {
		t.Errorf("second summary covers (-want +got):\n%s", d)
	}
}

// TestTokenThresholdFailureRetries checks that a failed token-threshold
// summary stores nothing, fails nothing, and lets the sliding window run;
// the next invocation summarises again.
func TestTokenThresholdFailureRetries(t *testing.T) {
	t.Parallel()
	h := et.New(t, newAgent(t, llmagent.Config{}))
	h.Runner.App.Compaction = &compaction.Config{Interval: 100, Model: modelName, TokenThreshold: 10, Retention: 0}
	m := scripted.New(modelName, withPrompt("r1", 50))
	m.Push(scripted.Fail(errors.New("quota exhausted")))
	m.Enqueue(withPrompt("r2", 60), withPrompt("Summary.", 5))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)

	if events := h.RunText(t, sid, "one"); len(events) != 1 {
		t.Fatalf("first invocation yielded %v", et.Events(events))
	}
	if n := len(h.Session(t, sid).Events); n != 2 {
		t.Fatalf("stored events after a failed summary = %d, want 2", n)
	}
	h.RunText(t, sid, "two")
	stored := h.Session(t, sid).Events
	c := stored[len(stored)-1].GetActions().GetCompaction()
	if len(stored) != 5 || c == nil || c.GetStartTimestamp() != stored[0].Timestamp || c.GetEndTimestamp() != stored[3].Timestamp {
		t.Errorf("after the second invocation: %v, want a summary of all four events", et.Events(stored))
	}
}
