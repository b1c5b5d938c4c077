package llmagent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
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
// summary stores nothing and fails nothing; the next invocation summarises
// before its model request, as ADK's compaction request processor does.
func TestTokenThresholdFailureRetries(t *testing.T) {
	t.Parallel()
	h := et.New(t, newAgent(t, llmagent.Config{}))
	h.Runner.App.Compaction = &compaction.Config{Interval: 100, Model: modelName, TokenThreshold: 10, Retention: 0}
	m := scripted.New(modelName, withPrompt("r1", 50))
	m.Push(scripted.Fail(errors.New("quota exhausted")))
	m.Enqueue(withPrompt("Summary.", 5), withPrompt("r2", 60))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)

	if events := h.RunText(t, sid, "one"); len(events) != 1 {
		t.Fatalf("first invocation yielded %v", et.Events(events))
	}
	if n := len(h.Session(t, sid).Events); n != 2 {
		t.Fatalf("stored events after a failed summary = %d, want 2", n)
	}
	if events := h.RunText(t, sid, "two"); len(events) != 1 || events[0].GetContent().GetParts()[0].GetText() != "r2" {
		t.Fatalf("second invocation yielded %v, want its answer only", et.Events(events))
	}
	stored := h.Session(t, sid).Events
	c := stored[3].GetActions().GetCompaction()
	if len(stored) != 5 || c == nil || c.GetStartTimestamp() != stored[0].Timestamp || c.GetEndTimestamp() != stored[2].Timestamp {
		t.Errorf("after the second invocation: %v, want a summary of [one, r1, two] before r2", et.Events(stored))
	}
	if d := cmp.Diff([]string{"model: Summary."}, et.Contents(m.Requests()[3].Contents)); d != "" {
		t.Errorf("second request contents (-want +got):\n%s", d)
	}
}

// TestBehaviorTokenThresholdBeforeRequest follows google-adk 1.39.1 when a
// model call in the middle of an invocation reported a prompt at the
// threshold (100, retention 1, sliding window of 1): before the next
// request the events before the function call are summarised (the kept
// response keeps its call), the request starts with the summary, and at
// the end of the invocation the token threshold is not checked again
// while the sliding window summarises the whole invocation.
func TestBehaviorTokenThresholdBeforeRequest(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Tools: []runtime.Tool{echoTool(t, "echo")}})
	h := et.New(t, agent)
	h.Runner.App.Compaction = &compaction.Config{Interval: 1, Model: modelName, TokenThreshold: 100, Retention: 1}
	call := et.Calls(&v1.FunctionCall{Id: "c1", Name: "echo", Args: et.Struct(`{}`)})
	call.UsageMetadata = &v1.UsageMetadata{PromptTokenCount: 150}
	m := scripted.New(modelName, call, withPrompt("SUM", 7), withPrompt("done", 20), withPrompt("SUM2", 3))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)
	h.RunText(t, sid, "q")

	stored := h.Session(t, sid).Events
	if len(stored) != 6 {
		t.Fatalf("stored = %v, want q, call, response, summary, done, summary", et.Events(stored))
	}
	first, second := stored[3].GetActions().GetCompaction(), stored[5].GetActions().GetCompaction()
	if first == nil || first.GetStartTimestamp() != stored[0].Timestamp || first.GetEndTimestamp() != stored[0].Timestamp {
		t.Errorf("first summary = %v, want one of [q]", stored[3])
	}
	if second == nil || second.GetStartTimestamp() != stored[0].Timestamp || second.GetEndTimestamp() != stored[4].Timestamp {
		t.Errorf("second summary = %v, want the sliding window's from q to done", stored[5])
	}
	reqs := m.Requests()
	if d := cmp.Diff([]string{"user: q"}, summarized(reqs[1].Contents[0].Parts[0].Text)); d != "" {
		t.Errorf("first summary covers (-want +got):\n%s", d)
	}
	got := et.Contents(reqs[2].Contents)
	if len(got) != 3 || got[0] != "model: SUM" {
		t.Errorf("request after the summary = %v, want the summary, the call and its response", got)
	}
	if d := cmp.Diff([]string{"user: q", "root_agent: done"}, summarized(reqs[3].Contents[0].Parts[0].Text)); d != "" {
		t.Errorf("sliding window covers (-want +got):\n%s", d)
	}
}
