package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

func runWithID(ctx context.Context, h *et.Harness, sid, text, requestID string) ([]*v1.Event, error) {
	var events []*v1.Event
	for ev, err := range h.Runner.Run(ctx, runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: et.UserText(text),
		RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, RequestID: requestID}) {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

func userEvents(events []*v1.Event) []*v1.Event {
	var out []*v1.Event
	for _, ev := range events {
		if ev.Author == "user" {
			out = append(out, ev)
		}
	}
	return out
}

// TestRetryOfFinishedRunReplays retries a run that finished: the retry
// yields the same events, stores nothing and calls no model.
func TestRetryOfFinishedRunReplays(t *testing.T) {
	t.Parallel()
	h, m, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{quickTool(t, "a", false)}},
		[]*v1.LlmResponse{et.Call("a", `{}`), et.Text("done")})
	first, err := runWithID(t.Context(), h, sid, "go", "req-1")
	if err != nil {
		t.Fatal(err)
	}
	stored := h.Session(t, sid).Events
	if stored[0].RequestId != "req-1" {
		t.Errorf("user event request_id = %q, want req-1", stored[0].RequestId)
	}
	calls := m.Calls()
	again, err := runWithID(t.Context(), h, sid, "go", "req-1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(first, again, protocmp.Transform()); d != "" {
		t.Errorf("replayed events (-first +retry):\n%s", d)
	}
	if m.Calls() != calls {
		t.Errorf("the retry called the model %d times", m.Calls()-calls)
	}
	if n := len(h.Session(t, sid).Events); n != len(stored) {
		t.Errorf("the retry stored %d events", n-len(stored))
	}
}

// TestRetryOfCancelledRunContinues retries a run cancelled during a tool
// call: the user message is stored once and the invocation continues under
// its id, the model seeing the closed call.
func TestRetryOfCancelledRunContinues(t *testing.T) {
	t.Parallel()
	started := make(chan struct{}, 1)
	h, m, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{blockingTool(t, "slow", started)}},
		[]*v1.LlmResponse{et.Call("slow", `{}`)})
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-started; cancel() }()
	if _, err := runWithID(ctx, h, sid, "go", "req-1"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	m.Enqueue(et.Text("sorry, it was cancelled"))
	events, err := runWithID(t.Context(), h, sid, "go", "req-1")
	if err != nil {
		t.Fatal(err)
	}
	stored := h.Session(t, sid).Events
	if users := userEvents(stored); len(users) != 1 {
		t.Errorf("stored user messages = %d, want 1", len(users))
	}
	if len(events) != 1 || events[0].InvocationId != stored[0].InvocationId {
		t.Errorf("retry events %v, want one answer in invocation %s", et.Events(events), stored[0].InvocationId)
	}
	want := []string{"user: go", "model: call slow{}",
		`user: response slow{"error":"The tool call was not completed: the invocation was cancelled."}`}
	reqs := m.Requests()
	if d := cmp.Diff(want, et.Contents(reqs[len(reqs)-1].Contents)); d != "" {
		t.Errorf("model request of the retry (-want +got):\n%s", d)
	}
	// Now finished: a third try replays the answer.
	again, err := runWithID(t.Context(), h, sid, "go", "req-1")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"root_agent: call slow{}",
		`root_agent: response slow{"error":"The tool call was not completed: the invocation was cancelled."}`,
		"root_agent: sorry, it was cancelled"}, et.Events(again)); d != "" {
		t.Errorf("replay (-want +got):\n%s", d)
	}
}

// TestRetryAfterUserMessageOnly retries a run that stored its message and
// then died: it runs the agent without storing the message again.
func TestRetryAfterUserMessageOnly(t *testing.T) {
	t.Parallel()
	h, m, sid := newHarness(t, llmagent.Config{}, []*v1.LlmResponse{et.Text("hello")})
	sess := h.Session(t, sid)
	if err := h.Sessions.AppendEvent(t.Context(), sess,
		&v1.Event{InvocationId: "e-first", Author: "user", RequestId: "r", Content: et.UserText("hi")}); err != nil {
		t.Fatal(err)
	}
	events, err := runWithID(t.Context(), h, sid, "hi", "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].InvocationId != "e-first" {
		t.Errorf("events = %v, want the answer in e-first", events)
	}
	if d := cmp.Diff([]string{"user: hi"}, et.Contents(m.Requests()[0].Contents)); d != "" {
		t.Errorf("model request (-want +got):\n%s", d)
	}
	if users := userEvents(h.Session(t, sid).Events); len(users) != 1 {
		t.Errorf("stored user messages = %d, want 1", len(users))
	}
}

func TestRequestIDValidated(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, id, want string }{
		{"too long", strings.Repeat("x", runtime.MaxRequestIDLength+1), "longer than 128 bytes"},
		{"not utf-8", "a\xffb", "not valid UTF-8"},
		{"nul", "a\x00b", "control characters"},
		{"newline", "a\nb", "control characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, _, sid := newHarness(t, llmagent.Config{}, []*v1.LlmResponse{et.Text("never")})
			_, err := runWithID(t.Context(), h, sid, "hi", tt.id)
			var rerr *runtime.Error
			if !errors.As(err, &rerr) || rerr.Code != runtime.CodeInvalidArgument || !strings.Contains(rerr.Message, tt.want) {
				t.Errorf("err = %v, want INVALID_ARGUMENT %q", err, tt.want)
			}
			if n := len(h.Session(t, sid).Events); n != 0 {
				t.Errorf("a rejected run stored %d events", n)
			}
		})
	}
	if err := runtime.ValidateRequestID(strings.Repeat("é", 64)); err != nil {
		t.Errorf("128 bytes of UTF-8 rejected: %v", err)
	}
}
