package llmagent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// TestBehaviorC8CompactionAfterInvocations runs an app with
// events_compaction_config (interval 2, overlap 1): after the second
// invocation the root agent's model summarises both, the summary is stored
// but not yielded, and the third invocation's request holds the summary
// (role model) in place of the events it covers.
func TestBehaviorC8CompactionAfterInvocations(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Instruction: "Be brief."})
	h := et.New(t, agent)
	h.Runner.App.Compaction = &compaction.Config{Interval: 2, Overlap: 1, Model: modelName}
	m := scripted.New(modelName,
		et.Text("one"),
		et.Text("two"), et.Text("They said first and second."), // the second answer, then the summary
		et.Text("three"))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)

	h.RunText(t, sid, "first")
	if events := h.RunText(t, sid, "second"); len(events) != 1 || events[0].GetActions().GetCompaction() != nil {
		t.Fatalf("second invocation yielded %v, want its answer only", et.Events(events))
	}
	stored := h.Session(t, sid).Events
	last := stored[len(stored)-1]
	c := last.GetActions().GetCompaction()
	if c == nil || last.Author != "user" || c.GetStartTimestamp() != stored[0].Timestamp ||
		c.GetEndTimestamp() != stored[3].Timestamp || c.GetCompactedContent().GetParts()[0].GetText() != "They said first and second." {
		t.Fatalf("last stored event = %v, want the summary of the first two invocations", last)
	}
	prompt := m.Requests()[2].Contents[0].Parts[0].Text
	if !strings.HasSuffix(prompt, `\n\nuser: first\nroot_agent: one\nuser: second\nroot_agent: two`) {
		t.Errorf("summarizer prompt = %q", prompt)
	}

	h.RunText(t, sid, "third")
	reqs := m.Requests()
	if len(reqs) != 4 {
		t.Fatalf("model requests = %d, want 4 (one invocation, no summary yet)", len(reqs))
	}
	want := []string{"model: They said first and second.", "user: third"}
	if d := cmp.Diff(want, et.Contents(reqs[3].Contents)); d != "" {
		t.Errorf("third request contents (-want +got):\n%s", d)
	}
	if got := reqs[3].GetConfig().GetSystemInstruction(); !strings.HasPrefix(got, "Be brief.") {
		t.Errorf("third request system instruction = %q", got)
	}
}

// TestCompactionFailureKeepsTheInvocation checks that a summarizer that
// fails leaves the finished invocation and the session as they were, and
// that the next invocation summarises instead.
func TestCompactionFailureKeepsTheInvocation(t *testing.T) {
	t.Parallel()
	h := et.New(t, newAgent(t, llmagent.Config{}))
	h.Runner.App.Compaction = &compaction.Config{Interval: 1, Overlap: 0, Model: modelName}
	m := scripted.New(modelName, et.Text("one"))
	m.Push(scripted.Fail(errors.New("quota exhausted")))
	m.Enqueue(et.Text("two"), et.Text("Summary."))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)

	if events := h.RunText(t, sid, "first"); len(events) != 1 {
		t.Fatalf("first invocation yielded %v", et.Events(events))
	}
	if n := len(h.Session(t, sid).Events); n != 2 {
		t.Fatalf("stored events after a failed summary = %d, want 2", n)
	}
	h.RunText(t, sid, "second")
	stored := h.Session(t, sid).Events
	c := stored[len(stored)-1].GetActions().GetCompaction()
	if c == nil || c.GetStartTimestamp() != stored[0].Timestamp {
		t.Errorf("after the second invocation the last event is %v, want a summary from the first", stored[len(stored)-1])
	}
}
