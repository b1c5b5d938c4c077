package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// TestCompactionOverGRPC runs an app whose app.yaml sets
// events_compaction_config: after the second turn the root agent's model
// is asked for a summary with ADK's prompt, the summary is stored but not
// streamed, and the third turn's request starts with it in place of the
// first two turns.
func TestCompactionOverGRPC(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{
		"chat":          "name: chat\nmodel: gemini-2.5-flash\ninstruction: Be brief.\n",
		"chat/app.yaml": "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n",
	})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid, _ := s.runApp(t, ctx, "chat", "", "one")
	_, events := s.runApp(t, ctx, "chat", sid, "two")
	if len(events) != 1 || events[0].GetActions().GetCompaction() != nil {
		t.Fatalf("second turn streamed %v, want its answer only", events)
	}
	got, err := api.NewSessionServiceClient(s.conn).GetSession(ctx, &api.GetSessionRequest{AppName: "chat", UserId: "u", SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	stored := got.Session.Events
	if len(stored) != 5 || stored[4].GetActions().GetCompaction() == nil || stored[4].Author != "user" {
		t.Fatalf("stored events = %v, want two turns and a summary", stored)
	}
	s.runApp(t, ctx, "chat", sid, "three")

	reqs := s.modelRequests(t)
	if len(reqs) != 4 {
		t.Fatalf("model requests = %d, want 4", len(reqs))
	}
	summarize := contentsOf(t, reqs[2].Body)
	if len(summarize) != 1 || summarize[0].role != "user" ||
		!strings.HasPrefix(summarize[0].text, "The following is a conversation history between a user and an AI agent.") ||
		!strings.HasSuffix(summarize[0].text, `\n\nuser: one\nchat: Echo: one\nuser: two\nchat: Echo: two`) {
		t.Errorf("summarizer request contents = %+v", summarize)
	}
	if _, ok := reqs[2].Body["systemInstruction"]; ok {
		t.Errorf("summarizer request has a system instruction: %v", reqs[2].Body)
	}
	third := contentsOf(t, reqs[3].Body)
	summary := stored[4].GetActions().GetCompaction().GetCompactedContent().GetParts()[0].GetText()
	if len(third) != 2 || third[0].role != "model" || third[0].text != summary || third[1].text != "three" {
		t.Errorf("third turn contents = %+v, want the summary then the question", third)
	}
}

// turnText is one content of a recorded request: its role and text.
type turnText struct{ role, text string }

// contentsOf returns the contents of a recorded request body.
func contentsOf(t *testing.T, body map[string]any) []turnText {
	t.Helper()
	list, _ := body["contents"].([]any)
	var out []turnText
	for _, c := range list {
		m, _ := c.(map[string]any)
		parts, _ := m["parts"].([]any)
		var text strings.Builder
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			s, _ := pm["text"].(string)
			text.WriteString(s)
		}
		role, _ := m["role"].(string)
		out = append(out, turnText{role, text.String()})
	}
	return out
}

// TestTokenThresholdCompactionOverGRPC runs an app whose app.yaml sets
// token_threshold and event_retention_size: once a model response reports
// a prompt at the threshold, the events before the last one are summarised
// at the end of that invocation (the sliding window, also due, is
// skipped), and the next request starts with the summary; at the end of
// the next invocation the sliding window runs.
func TestTokenThresholdCompactionOverGRPC(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{
		"chat": "name: chat\nmodel: gemini-2.5-flash\ninstruction: Be brief.\n",
		"chat/app.yaml": "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n" +
			"  token_threshold: 1000\n  event_retention_size: 1\n",
	})
	answer := func(text string, prompt int) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"candidates":[{"content":{"role":"model","parts":[{"text":%q}]},"finishReason":"STOP"}],`+
			`"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":1,"totalTokenCount":%d}}`, text, prompt, prompt+1))
	}
	s.script(t, answer("r1", 10), answer("r2", 1000), answer("The user said one and two.", 20), answer("r3", 30))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid, _ := s.runApp(t, ctx, "chat", "", "one")
	_, events := s.runApp(t, ctx, "chat", sid, "two")
	if len(events) != 1 || events[0].GetActions().GetCompaction() != nil {
		t.Fatalf("second turn streamed %v, want its answer only", events)
	}
	got, err := api.NewSessionServiceClient(s.conn).GetSession(ctx, &api.GetSessionRequest{AppName: "chat", UserId: "u", SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	stored := got.Session.Events
	if len(stored) != 5 {
		t.Fatalf("stored events = %v, want two turns and one summary", stored)
	}
	c := stored[4].GetActions().GetCompaction()
	if c == nil || c.GetStartTimestamp() != stored[0].Timestamp || c.GetEndTimestamp() != stored[2].Timestamp {
		t.Fatalf("summary = %v, want one covering the first three events", stored[4])
	}
	s.runApp(t, ctx, "chat", sid, "three")

	reqs := s.modelRequests(t)
	// The third turn ends with the sliding window's summary, the second
	// and third invocations being new since the first summary.
	if len(reqs) != 5 {
		t.Fatalf("model requests = %d, want 5", len(reqs))
	}
	if last := contentsOf(t, reqs[4].Body); len(last) != 1 || !strings.HasSuffix(last[0].text, `\n\nuser: two\nchat: r2\nuser: three\nchat: r3`) {
		t.Errorf("sliding window summarizer request contents = %+v", last)
	}
	summarize := contentsOf(t, reqs[2].Body)
	if len(summarize) != 1 || !strings.HasSuffix(summarize[0].text, `\n\nuser: one\nchat: r1\nuser: two`) {
		t.Errorf("summarizer request contents = %+v", summarize)
	}
	third := contentsOf(t, reqs[3].Body)
	if len(third) != 3 || third[0].text != "The user said one and two." || third[1].text != "r2" || third[2].text != "three" {
		t.Errorf("third turn contents = %+v, want the summary, the kept answer, then the question", third)
	}
}
