package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// blockingTool returns a tool that signals started, then waits for its
// context.
func blockingTool(t *testing.T, name string, started chan<- struct{}) runtime.Tool {
	t.Helper()
	f, err := tools.NewFunction(tools.FunctionConfig{Name: name, Run: func(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
		if started != nil {
			started <- struct{}{}
		}
		<-tctx.Context().Done()
		return nil, tctx.Context().Err()
	}})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func quickTool(t *testing.T, name string, longRunning bool) runtime.Tool {
	t.Helper()
	f, err := tools.NewFunction(tools.FunctionConfig{Name: name, LongRunning: longRunning,
		Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) {
			if longRunning {
				return nil, nil
			}
			return "ok", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDanglingCallsClosedWhenTheInvocationEndsEarly ends invocations in
// each way while calls are pending: each pending call is answered by one
// error response event per call event, in call order, and the next model
// request pairs every call.
func TestDanglingCallsClosedWhenTheInvocationEndsEarly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// ctx returns the invocation's context and what ends it once
		// both tools started.
		ctx  func() (context.Context, func())
		text string
	}{
		{"cancelled", func() (context.Context, func()) {
			ctx, cancel := context.WithCancel(t.Context())
			return ctx, cancel
		}, "The tool call was not completed: the invocation was cancelled."},
		{"deadline", func() (context.Context, func()) {
			// A deadline that passes once the tools run, as the
			// invocation's context reports it.
			ctx, cancel := context.WithCancelCause(t.Context())
			return ctx, func() { cancel(context.DeadlineExceeded) }
		}, "The tool call was not completed: the invocation ran out of time."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			started := make(chan struct{}, 2)
			cfg := llmagent.Config{Tools: []runtime.Tool{
				blockingTool(t, "a", started), quickTool(t, "b", false), blockingTool(t, "c", started),
			}}
			h, m, sid := newHarness(t, cfg, []*v1.LlmResponse{et.Calls(
				&v1.FunctionCall{Id: "1", Name: "a"}, &v1.FunctionCall{Id: "2", Name: "b"}, &v1.FunctionCall{Id: "3", Name: "c"})})
			ctx, end := tt.ctx()
			go func() { <-started; <-started; end() }()
			if _, err := h.Run(ctx, sid, et.UserText("go"), runtime.RunConfig{}); err == nil {
				t.Fatal("the invocation did not fail")
			}
			// b returned, but the invocation failed before its response
			// was stored: it is closed too.
			closed := func(name, id string) string {
				return `root_agent: response ` + name + `{"error":"` + tt.text + `"} #` + id
			}
			want := []string{"user: go", "root_agent: call a{} #1", "root_agent: call b{} #2", "root_agent: call c{} #3",
				closed("a", "1"), closed("b", "2"), closed("c", "3")}
			stored := h.Session(t, sid).Events
			if d := cmp.Diff(want, et.Events(stored)); d != "" {
				t.Errorf("stored (-want +got):\n%s", d)
			}
			if len(stored) != 3 {
				t.Errorf("stored %d events, want user, call and one closing event", len(stored))
			}

			m.Enqueue(et.Text("fine"))
			h.RunText(t, sid, "again")
			reqs := m.Requests()
			got := et.Contents(reqs[len(reqs)-1].Contents)
			wantReq := []string{"user: go", "model: call a{} #1", "model: call b{} #2", "model: call c{} #3",
				`user: response a{"error":"` + tt.text + `"} #1`, `user: response b{"error":"` + tt.text + `"} #2`,
				`user: response c{"error":"` + tt.text + `"} #3`, "user: again"}
			if d := cmp.Diff(wantReq, got); d != "" {
				t.Errorf("next model request (-want +got):\n%s", d)
			}
		})
	}
}

// TestDanglingCallsRepairedOnLoad stores what a process killed mid-call
// leaves behind: the next run first closes the call, and its model request
// pairs it.
func TestDanglingCallsRepairedOnLoad(t *testing.T) {
	t.Parallel()
	h, m, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{quickTool(t, "a", false)}}, nil)
	sess := h.Session(t, sid)
	for _, ev := range []*v1.Event{
		{InvocationId: "e-dead", Author: "user", Content: et.UserText("go")},
		{InvocationId: "e-dead", Author: "root_agent", Content: et.Call("a", `{}`).Content},
	} {
		if fc := ev.Content.Parts[0].FunctionCall; fc != nil {
			fc.Id = "dead-call"
		}
		if err := h.Sessions.AppendEvent(t.Context(), sess, ev); err != nil {
			t.Fatal(err)
		}
	}
	m.Enqueue(et.Text("fine"))
	h.RunText(t, sid, "again")

	stored := h.Session(t, sid).Events
	closed := `root_agent: response a{"error":"The tool call was not completed: the invocation ended before it returned."} #dead-call`
	want := []string{"user: go", "root_agent: call a{} #dead-call", closed, "user: again", "root_agent: fine"}
	if d := cmp.Diff(want, et.Events(stored)); d != "" {
		t.Errorf("stored (-want +got):\n%s", d)
	}
	if stored[2].InvocationId != "e-dead" {
		t.Errorf("closing event invocation = %q, want the call's", stored[2].InvocationId)
	}
	wantReq := []string{"user: go", "model: call a{} #dead-call",
		`user: response a{"error":"The tool call was not completed: the invocation ended before it returned."} #dead-call`,
		"user: again"}
	if d := cmp.Diff(wantReq, et.Contents(m.Requests()[0].Contents)); d != "" {
		t.Errorf("model request (-want +got):\n%s", d)
	}
}

// TestLongRunningCallsStayOpen checks that a long-running call with no
// result (BEHAVIOR T6) is not closed, neither at the end of its invocation
// nor by the next one.
func TestLongRunningCallsStayOpen(t *testing.T) {
	t.Parallel()
	h, m, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{quickTool(t, "approve", true)}},
		[]*v1.LlmResponse{et.Calls(&v1.FunctionCall{Id: "lr", Name: "approve"})})
	h.RunText(t, sid, "go")
	m.Enqueue(et.Text("still waiting"))
	h.RunText(t, sid, "anything?")
	for _, ev := range h.Session(t, sid).Events {
		if len(runtime.FunctionResponses(ev)) > 0 {
			t.Errorf("long-running call answered by %v", et.Events([]*v1.Event{ev}))
		}
	}
}

// TestFailedInvocationClosesItsCalls fails an invocation by a tool error
// with no callback to answer it.
func TestFailedInvocationClosesItsCalls(t *testing.T) {
	t.Parallel()
	boom, err := tools.NewFunction(tools.FunctionConfig{Name: "boom", Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) {
		return nil, errors.New("boom")
	}})
	if err != nil {
		t.Fatal(err)
	}
	h, _, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{boom}}, []*v1.LlmResponse{et.Call("boom", `{}`)})
	if _, err := h.Run(t.Context(), sid, et.UserText("go"), runtime.RunConfig{}); err == nil {
		t.Fatal("the invocation did not fail")
	}
	want := []string{"user: go", "root_agent: call boom{}",
		`root_agent: response boom{"error":"The tool call was not completed: the invocation failed."}`}
	if d := cmp.Diff(want, et.Events(h.Session(t, sid).Events)); d != "" {
		t.Errorf("stored (-want +got):\n%s", d)
	}
}

// TestDanglingCallRepairedAfterLaterTurns repairs a call that was left open
// before later turns were stored (a session written before calls were
// closed): the model request still pairs it, the response moved next to
// its call as ADK moves asynchronous responses.
func TestDanglingCallRepairedAfterLaterTurns(t *testing.T) {
	t.Parallel()
	h, m, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{quickTool(t, "a", false)}}, nil)
	sess := h.Session(t, sid)
	call := et.Call("a", `{}`).Content
	call.Parts[0].FunctionCall.Id = "old-call"
	for _, ev := range []*v1.Event{
		{InvocationId: "e-1", Author: "user", Content: et.UserText("go")},
		{InvocationId: "e-1", Author: "root_agent", Content: call},
		{InvocationId: "e-2", Author: "user", Content: et.UserText("hello?")},
		{InvocationId: "e-2", Author: "root_agent", Content: et.Text("hi").Content},
	} {
		if err := h.Sessions.AppendEvent(t.Context(), sess, ev); err != nil {
			t.Fatal(err)
		}
	}
	m.Enqueue(et.Text("fine"))
	h.RunText(t, sid, "again")
	closed := `{"error":"The tool call was not completed: the invocation ended before it returned."} #old-call`
	want := []string{"user: go", "model: call a{} #old-call", "user: response a" + closed,
		"user: hello?", "model: hi", "user: again"}
	if d := cmp.Diff(want, et.Contents(m.Requests()[0].Contents)); d != "" {
		t.Errorf("model request (-want +got):\n%s", d)
	}
}

// flakyStore fails the first appends of function responses with
// ErrUnavailable: when lost is set, the store keeps the event (its answer
// was lost on the way), else it does not.
type flakyStore struct {
	sessions.Service
	lost bool

	mu       sync.Mutex
	failures int
}

func (f *flakyStore) AppendEvent(ctx context.Context, sess *v1.Session, ev *v1.Event) error {
	f.mu.Lock()
	fail := f.failures > 0 && len(runtime.FunctionResponses(ev)) > 0
	if fail {
		f.failures--
	}
	f.mu.Unlock()
	if !fail {
		return f.Service.AppendEvent(ctx, sess, ev)
	}
	if f.lost {
		// Stored through a copy of the handle: the caller's stays as it
		// was, as when the store's answer never arrives.
		if err := f.Service.AppendEvent(ctx, proto.Clone(sess).(*v1.Session), proto.Clone(ev).(*v1.Event)); err != nil {
			return err
		}
	}
	return fmt.Errorf("flaky: %w", sessions.ErrUnavailable)
}

// TestClosingCallsOutlastsAShortStoreOutage fails the invocation while the
// store is briefly unreachable: the calls are still closed, once, whether
// the failed writes were stored or not.
func TestClosingCallsOutlastsAShortStoreOutage(t *testing.T) {
	t.Parallel()
	for _, lost := range []bool{false, true} {
		t.Run(fmt.Sprintf("stored=%v", lost), func(t *testing.T) {
			t.Parallel()
			boom, err := tools.NewFunction(tools.FunctionConfig{Name: "boom", Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) {
				return nil, errors.New("boom")
			}})
			if err != nil {
				t.Fatal(err)
			}
			h, _, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{boom}}, []*v1.LlmResponse{et.Call("boom", `{}`)})
			h.Runner.Sessions = &flakyStore{Service: h.Sessions, lost: lost, failures: 2}
			if _, err := h.Run(t.Context(), sid, et.UserText("go"), runtime.RunConfig{}); err == nil {
				t.Fatal("the invocation did not fail")
			}
			want := []string{"user: go", "root_agent: call boom{}",
				`root_agent: response boom{"error":"The tool call was not completed: the invocation failed."}`}
			if d := cmp.Diff(want, et.Events(h.Session(t, sid).Events)); d != "" {
				t.Errorf("stored (-want +got):\n%s", d)
			}
		})
	}
}

// TestDanglingCallsFoundAfterAKeptScan: a run reads on from where the last
// run's look for open calls stopped; a call stored since, by anyone, is
// still found and closed.
func TestDanglingCallsFoundAfterAKeptScan(t *testing.T) {
	t.Parallel()
	h, m, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{quickTool(t, "a", false)}},
		[]*v1.LlmResponse{et.Text("first")})
	h.RunText(t, sid, "one")
	sess := h.Session(t, sid)
	call := &v1.Event{InvocationId: "e-dead", Author: "root_agent", Content: et.Call("a", `{}`).Content}
	call.Content.Parts[0].FunctionCall.Id = "late-call"
	if err := h.Sessions.AppendEvent(t.Context(), sess, call); err != nil {
		t.Fatal(err)
	}
	m.Enqueue(et.Text("second"))
	h.RunText(t, sid, "two")
	want := []string{"user: one", "root_agent: first", "root_agent: call a{} #late-call",
		`root_agent: response a{"error":"The tool call was not completed: the invocation ended before it returned."} #late-call`,
		"user: two", "root_agent: second"}
	if d := cmp.Diff(want, et.Events(h.Session(t, sid).Events)); d != "" {
		t.Errorf("stored (-want +got):\n%s", d)
	}
}
