package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

func runRequest(sid, text, requestID string) *api.RunRequest {
	return &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid, RequestId: requestID,
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: text}}}}
}

func userMessages(events []*v1.Event) int {
	n := 0
	for _, ev := range events {
		if ev.Author == "user" && len(ev.GetContent().GetParts()) > 0 && ev.Content.Parts[0].Text != "" {
			n++
		}
	}
	return n
}

// TestRunRetryAfterDeadlineStoresOneUserMessage runs with a request id
// until the client's deadline passes mid-call, then retries: the user
// message is stored once, the retry continues the same invocation, and the
// model request it makes pairs the call with its error response.
func TestRunRetryAfterDeadlineStoresOneUserMessage(t *testing.T) {
	t.Parallel()
	s := newStack(t, time.Minute)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
	start := startMsg(sid, "Weather?", weatherTool)
	start.GetStart().Run.RequestId = "req-1"
	dctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := recvAll(s.connect(t, dctx, start)); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("first attempt: %v, want DEADLINE_EXCEEDED", err)
	}
	s.waitIdle(t)

	s.model.Enqueue(et.Text("I could not get the weather."))
	events, err := s.run(ctx, runRequest(sid, "Weather?", "req-1"))
	if err != nil {
		t.Fatal(err)
	}
	sess := s.session(t, ctx, sid)
	if n := userMessages(sess.Events); n != 1 {
		t.Errorf("stored user messages = %d, want 1: %v", n, et.Events(sess.Events))
	}
	if sess.Events[0].RequestId != "req-1" {
		t.Errorf("user event request_id = %q", sess.Events[0].RequestId)
	}
	if len(events) != 1 || events[0].InvocationId != sess.Events[0].InvocationId {
		t.Errorf("retry events = %v, want the answer in the first invocation", et.Events(events))
	}
	// The server sees the deadline pass, or the client's cancellation
	// that follows it, whichever comes first.
	reqs := s.model.Requests()
	got := et.Contents(reqs[len(reqs)-1].Contents)
	for _, end := range []string{"ran out of time.", "was cancelled."} {
		if len(got) == 3 && strings.HasSuffix(got[2], end+`"}`) {
			got[2] = `user: response get_weather{"error":"The tool call was not completed: the invocation ..."}`
		}
	}
	want := []string{"user: Weather?", `model: call get_weather{"city":"Paris"}`,
		`user: response get_weather{"error":"The tool call was not completed: the invocation ..."}`}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("model request of the retry (-want +got):\n%s", d)
	}
}

// TestRunRetryOfFinishedRunReplays retries a finished run: the same events
// come back and the model is not called.
func TestRunRetryOfFinishedRunReplays(t *testing.T) {
	t.Parallel()
	s := newStack(t, time.Minute)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Text("Hello."))
	first, err := s.run(ctx, runRequest(sid, "Hi", "req-1"))
	if err != nil {
		t.Fatal(err)
	}
	calls := s.model.Calls()
	again, err := s.run(ctx, runRequest(sid, "Hi", "req-1"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(first, again, protocmp.Transform()); d != "" {
		t.Errorf("replay (-first +retry):\n%s", d)
	}
	if s.model.Calls() != calls {
		t.Error("the retry called the model")
	}
	if n := len(s.session(t, ctx, sid).Events); n != 2 {
		t.Errorf("stored events = %d, want 2", n)
	}
}

// TestRunRetryWhileRunningIsBusy retries while the first attempt still
// waits for a tool result: ABORTED, and nothing stored.
func TestRunRetryWhileRunningIsBusy(t *testing.T) {
	t.Parallel()
	s := newStack(t, time.Minute)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("Sunny."))
	start := startMsg(sid, "Weather?", weatherTool)
	start.GetStart().Run.RequestId = "req-1"
	stream := s.connect(t, ctx, start)
	head := recvUntil(t, stream, isToolCall)

	_, err := s.run(ctx, runRequest(sid, "Weather?", "req-1"))
	if st := status.Convert(err); st.Code() != codes.Aborted || !strings.Contains(st.Message(), "session is busy") {
		t.Errorf("retry while running: %v, want ABORTED session is busy", err)
	}
	if err := stream.Send(resultMsg(head[len(head)-1].GetToolCall().CallId, structpb.NewStringValue("sunny"))); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(stream); err != nil {
		t.Fatal(err)
	}
	if n := userMessages(s.session(t, ctx, sid).Events); n != 1 {
		t.Errorf("stored user messages = %d, want 1", n)
	}
}

func TestRunRequestIDValidated(t *testing.T) {
	t.Parallel()
	s := newStack(t, time.Minute)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	// Invalid UTF-8 cannot be sent over gRPC; the engine's tests cover it.
	for _, id := range []string{strings.Repeat("x", 129), "a\x00b", "a\nb"} {
		_, err := s.run(ctx, runRequest(sid, "Hi", id))
		if st := status.Convert(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), "request_id") {
			t.Errorf("request_id %q: %v, want INVALID_ARGUMENT naming request_id", id, err)
		}
	}
	if n := len(s.session(t, ctx, sid).Events); n != 0 {
		t.Errorf("rejected runs stored %d events", n)
	}
}
