package tools_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const modelName = "test-model"

// channelFunc is a client channel answering with a function.
type channelFunc func(ctx context.Context, call *tools.ClientCall) (*tools.ClientResult, error)

func (f channelFunc) CallTool(ctx context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
	return f(ctx, call)
}

// client is the tools one client declared.
type client []runtime.Tool

func (c client) Tools() []runtime.Tool { return c }

// clientTool declares a client tool answered by ch.
func clientTool(t *testing.T, decl tools.ClientDeclaration, ch tools.ClientChannel, timeout time.Duration) *tools.ClientTool {
	t.Helper()
	tool, err := tools.NewClientTool(tools.ClientToolConfig{Declaration: decl, Channel: ch, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// remoteRun runs "hi" on an agent whose remote tools are names, with the
// client's tools (nil: no client), and returns the events, the error and the
// harness.
func remoteRun(t *testing.T, ctx context.Context, names []string, c runtime.ClientTools, state map[string]any,
	resps ...*v1.LlmResponse) ([]*v1.Event, *et.Harness, string, error) {
	t.Helper()
	agent, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: modelName,
		Toolsets: []runtime.Toolset{tools.NewRemote(names...)}})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, agent)
	h.Models.Add(scripted.New(modelName, resps...))
	sid := h.NewSession(t, state)
	var events []*v1.Event
	for ev, err := range h.Runner.Run(ctx, runtime.RunRequest{UserID: et.UserID, SessionID: sid,
		NewMessage: et.UserText("hi"), RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: c}) {
		if err != nil {
			return events, h, sid, err
		}
		events = append(events, ev)
	}
	return events, h, sid, nil
}

func TestClientToolCall(t *testing.T) {
	t.Parallel()
	var got *tools.ClientCall
	ch := channelFunc(func(_ context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
		got = call
		return &tools.ClientResult{Response: structpb.NewStringValue("sunny")}, nil
	})
	tool := clientTool(t, tools.ClientDeclaration{Name: "get_weather"}, ch, 0)
	events, _, _, err := remoteRun(t, t.Context(), []string{"get_weather"}, client{tool},
		map[string]any{"city": "Paris"}, et.Call("get_weather", `{"city":"Paris"}`), et.Text("It is sunny."))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`root_agent: call get_weather{"city":"Paris"}`, `root_agent: response get_weather{"result":"sunny"}`,
		"root_agent: It is sunny."}
	if diff := cmp.Diff(want, et.Events(events)); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	call := events[0].Content.Parts[0].FunctionCall
	wantCall := &tools.ClientCall{CallID: call.Id, InvocationID: events[0].InvocationId, AgentName: "root_agent",
		FunctionCall: call, State: et.Struct(`{"city":"Paris"}`)}
	if diff := cmp.Diff(wantCall, got, protocmp.Transform()); diff != "" {
		t.Errorf("tool call (-want +got):\n%s", diff)
	}
}

func TestClientToolResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		longRunning bool
		result      *tools.ClientResult
		want        []string // the events after the call
	}{
		{"object as is", false, &tools.ClientResult{Response: structpb.NewStructValue(et.Struct(`{"temp":21}`))},
			[]string{`root_agent: response t{"temp":21}`, "root_agent: ok"}},
		{"number wrapped", false, &tools.ClientResult{Response: structpb.NewNumberValue(3)},
			[]string{`root_agent: response t{"result":3}`, "root_agent: ok"}},
		{"list wrapped", false, &tools.ClientResult{Response: structpb.NewListValue(&structpb.ListValue{
			Values: []*structpb.Value{structpb.NewStringValue("a")}})},
			[]string{`root_agent: response t{"result":["a"]}`, "root_agent: ok"}},
		{"absent is null", false, &tools.ClientResult{}, []string{`root_agent: response t{"result":null}`, "root_agent: ok"}},
		{"null is null", false, &tools.ClientResult{Response: structpb.NewNullValue()},
			[]string{`root_agent: response t{"result":null}`, "root_agent: ok"}},
		{"error", false, &tools.ClientResult{Error: "no such city", Response: structpb.NewStringValue("ignored")},
			[]string{`root_agent: response t{"error":"no such city"}`, "root_agent: ok"}},
		{"long-running without result ends the turn", true, &tools.ClientResult{}, nil},
		{"long-running null ends the turn", true, &tools.ClientResult{Response: structpb.NewNullValue()}, nil},
		{"long-running with a result", true, &tools.ClientResult{Response: structpb.NewStringValue("pending")},
			[]string{`root_agent: response t{"result":"pending"}`, "root_agent: ok"}},
		{"long-running error", true, &tools.ClientResult{Error: "refused"},
			[]string{`root_agent: response t{"error":"refused"}`, "root_agent: ok"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ch := channelFunc(func(context.Context, *tools.ClientCall) (*tools.ClientResult, error) { return tt.result, nil })
			tool := clientTool(t, tools.ClientDeclaration{Name: "t", LongRunning: tt.longRunning}, ch, 0)
			events, _, _, err := remoteRun(t, t.Context(), []string{"t"}, client{tool}, nil,
				et.Call("t", `{}`), et.Text("ok"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, et.Events(events)[1:], cmpEmpty()); diff != "" {
				t.Errorf("events after the call (-want +got):\n%s", diff)
			}
			if tt.longRunning && len(events[0].LongRunningToolIds) != 1 {
				t.Errorf("long_running_tool_ids = %v", events[0].LongRunningToolIds)
			}
		})
	}
}

func cmpEmpty() cmp.Option {
	return cmp.FilterValues(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 }, cmp.Ignore())
}

func TestClientToolActions(t *testing.T) {
	t.Parallel()
	ch := channelFunc(func(_ context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
		return &tools.ClientResult{Response: structpb.NewStringValue("done"), Actions: &v1.EventActions{
			StateDelta:        et.Struct(`{"count":2,"user:name":"Ada"}`),
			SkipSummarization: true,
			Escalate:          true,
			// Not settable by a client tool: ignored.
			EndOfAgent: true,
		}}, nil
	})
	tool := clientTool(t, tools.ClientDeclaration{Name: "t"}, ch, 0)
	events, h, sid, err := remoteRun(t, t.Context(), []string{"t"}, client{tool}, map[string]any{"count": 1},
		et.Call("t", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	// skip_summarization makes the response final: no second model call.
	if len(events) != 2 {
		t.Fatalf("events = %v", et.Events(events))
	}
	want := &v1.EventActions{StateDelta: et.Struct(`{"count":2,"user:name":"Ada"}`), SkipSummarization: true, Escalate: true}
	if diff := cmp.Diff(want, events[1].Actions, protocmp.Transform()); diff != "" {
		t.Errorf("response actions (-want +got):\n%s", diff)
	}
	state := h.Session(t, sid).State.AsMap()
	if state["count"] != 2.0 || state["user:name"] != "Ada" {
		t.Errorf("stored state = %v", state)
	}
}

func TestClientToolTransfer(t *testing.T) {
	t.Parallel()
	ch := channelFunc(func(context.Context, *tools.ClientCall) (*tools.ClientResult, error) {
		return &tools.ClientResult{Actions: &v1.EventActions{TransferToAgent: "helper"}}, nil
	})
	tool := clientTool(t, tools.ClientDeclaration{Name: "t"}, ch, 0)
	helper, err := llmagent.New(llmagent.Config{Name: "helper", Model: modelName})
	if err != nil {
		t.Fatal(err)
	}
	root, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: modelName, SubAgents: []runtime.Agent{helper},
		Toolsets: []runtime.Toolset{tools.NewRemote("t")}})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, root)
	h.Models.Add(scripted.New(modelName, et.Call("t", `{}`), et.Text("helper here")))
	sid := h.NewSession(t, nil)
	var authors []string
	for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
		NewMessage: et.UserText("hi"), RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: client{tool}}) {
		if err != nil {
			t.Fatal(err)
		}
		authors = append(authors, ev.Author)
		if got := ev.GetActions().GetTransferToAgent(); ev.Author == "root_agent" && len(runtime.FunctionResponses(ev)) > 0 && got != "helper" {
			t.Errorf("transfer_to_agent = %q, want helper", got)
		}
	}
	if diff := cmp.Diff([]string{"root_agent", "root_agent", "helper"}, authors); diff != "" {
		t.Errorf("authors (-want +got):\n%s", diff)
	}
}

func TestClientToolStateSeesPendingDelta(t *testing.T) {
	t.Parallel()
	var state *structpb.Struct
	ch := channelFunc(func(_ context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
		state = call.State
		return &tools.ClientResult{}, nil
	})
	tool := clientTool(t, tools.ClientDeclaration{Name: "t"}, ch, 0)
	agent, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: modelName,
		Toolsets: []runtime.Toolset{tools.NewRemote("t")},
		ToolCallbacks: runtime.ToolCallbacks{Before: []runtime.BeforeToolCallback{
			func(tctx *runtime.ToolContext, _ runtime.Tool, _ *structpb.Struct) (*structpb.Struct, error) {
				tctx.State().Set("b", structpb.NewStringValue("set before"))
				return nil, nil
			}}}})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, agent)
	h.Models.Add(scripted.New(modelName, et.Call("t", `{}`), et.Text("ok")))
	sid := h.NewSession(t, map[string]any{"a": "stored", "b": "old"})
	for _, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
		NewMessage: et.UserText("hi"), RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: client{tool}}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(et.Struct(`{"a":"stored","b":"set before"}`), state, protocmp.Transform()); diff != "" {
		t.Errorf("state sent (-want +got):\n%s", diff)
	}
}

func TestClientToolMissingArgsNotSent(t *testing.T) {
	t.Parallel()
	sent := false
	ch := channelFunc(func(context.Context, *tools.ClientCall) (*tools.ClientResult, error) {
		sent = true
		return &tools.ClientResult{}, nil
	})
	decl := tools.ClientDeclaration{Name: "book", Parameters: et.Struct(`{"type":"object","required":["city","date"]}`)}
	tool := clientTool(t, decl, ch, 0)
	events, _, _, err := remoteRun(t, t.Context(), []string{"book"}, client{tool}, nil,
		et.Call("book", `{"date":"today"}`), et.Text("ok"))
	if err != nil {
		t.Fatal(err)
	}
	got := events[1].Content.Parts[0].FunctionResponse.Response.Fields["error"].GetStringValue()
	want := "Invoking `book()` failed as the following mandatory input parameters are not present:\ncity\n" +
		"You could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters."
	if got != want || sent {
		t.Errorf("error = %q (sent: %v), want %q", got, sent, want)
	}
}

func TestClientToolTimeout(t *testing.T) {
	t.Parallel()
	ch := channelFunc(func(ctx context.Context, _ *tools.ClientCall) (*tools.ClientResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	tool := clientTool(t, tools.ClientDeclaration{Name: "slow"}, ch, 20*time.Millisecond)
	events, _, _, err := remoteRun(t, t.Context(), []string{"slow"}, client{tool}, nil,
		et.Call("slow", `{}`), et.Text("gave up"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"root_agent: call slow{}",
		`root_agent: response slow{"error":"Tool 'slow' did not return a result within 20ms."}`, "root_agent: gave up"}
	if diff := cmp.Diff(want, et.Events(events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestClientToolCancelledInvocationFails(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	ch := channelFunc(func(ctx context.Context, _ *tools.ClientCall) (*tools.ClientResult, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	})
	tool := clientTool(t, tools.ClientDeclaration{Name: "t"}, ch, time.Minute)
	events, h, sid, err := remoteRun(t, ctx, []string{"t"}, client{tool}, nil, et.Call("t", `{}`), et.Text("never"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	stored := et.Events(h.Session(t, sid).Events)
	want := []string{"user: hi", "root_agent: call t{}",
		`root_agent: response t{"error":"The tool call was not completed: the invocation was cancelled."}`}
	if diff := cmp.Diff(want, stored); len(events) != 1 || diff != "" {
		t.Errorf("want the call event streamed, then closed with an error response: %v\nstored (-want +got):\n%s",
			et.Events(events), diff)
	}
}

func TestClientToolChannelErrorFails(t *testing.T) {
	t.Parallel()
	boom := errors.New("stream broken")
	ch := channelFunc(func(context.Context, *tools.ClientCall) (*tools.ClientResult, error) { return nil, boom })
	tool := clientTool(t, tools.ClientDeclaration{Name: "t"}, ch, time.Minute)
	_, _, _, err := remoteRun(t, t.Context(), []string{"t"}, client{tool}, nil, et.Call("t", `{}`))
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the channel's error", err)
	}
}

func TestRemoteToolsetOffersDeclaredTools(t *testing.T) {
	t.Parallel()
	noop := channelFunc(func(context.Context, *tools.ClientCall) (*tools.ClientResult, error) {
		return &tools.ClientResult{}, nil
	})
	a := clientTool(t, tools.ClientDeclaration{Name: "a"}, noop, 0)
	b := clientTool(t, tools.ClientDeclaration{Name: "b", Description: "Does b.", LongRunning: true}, noop, 0)
	other := clientTool(t, tools.ClientDeclaration{Name: "other"}, noop, 0)
	tests := []struct {
		name   string
		client runtime.ClientTools
		want   []string // declared function names
	}{
		{"no client", nil, nil},
		{"nothing declared", client{}, nil},
		{"in the agent's order, others left out", client{other, b, a}, []string{"b", "a"}},
		{"one undeclared", client{a}, []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			agent, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: modelName,
				Toolsets: []runtime.Toolset{tools.NewRemote("b", "a")}})
			if err != nil {
				t.Fatal(err)
			}
			h := et.New(t, agent)
			m := scripted.New(modelName, et.Text("ok"))
			h.Models.Add(m)
			sid := h.NewSession(t, nil)
			for _, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
				NewMessage: et.UserText("hi"), RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: tt.client}) {
				if err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			for _, tl := range m.Requests()[0].GetConfig().GetTools() {
				for _, d := range tl.GetFunctionDeclarations() {
					got = append(got, d.Name)
					if d.Name == "b" && !strings.HasPrefix(d.Description, "Does b.\n\nNOTE: This is a long-running operation.") {
						t.Errorf("long-running description = %q", d.Description)
					}
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("declared tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUndeclaredRemoteToolIsNotFound(t *testing.T) {
	t.Parallel()
	for _, c := range []runtime.ClientTools{nil, client{}} {
		events, _, _, err := remoteRun(t, t.Context(), []string{"get_weather"}, c, nil, et.Call("get_weather", `{}`))
		var rerr *runtime.Error
		if !errors.As(err, &rerr) || rerr.Code != runtime.CodeFailedPrecondition ||
			!strings.HasPrefix(rerr.Message, "Tool 'get_weather' not found.") {
			t.Errorf("client %v: err = %v, want Tool 'get_weather' not found.", c, err)
		}
		if len(events) != 1 {
			t.Errorf("client %v: the call event must be streamed before the failure", c)
		}
	}
}

func TestClientToolParallelCalls(t *testing.T) {
	t.Parallel()
	// Every call waits until all three are in flight: they must run at once.
	var wg sync.WaitGroup
	wg.Add(3)
	ch := channelFunc(func(_ context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
		wg.Done()
		wg.Wait()
		return &tools.ClientResult{Response: structpb.NewStringValue(call.FunctionCall.Args.Fields["n"].GetStringValue())}, nil
	})
	tool := clientTool(t, tools.ClientDeclaration{Name: "t"}, ch, 5*time.Second)
	calls := et.Calls(&v1.FunctionCall{Name: "t", Args: et.Struct(`{"n":"1"}`)},
		&v1.FunctionCall{Name: "t", Args: et.Struct(`{"n":"2"}`)}, &v1.FunctionCall{Name: "t", Args: et.Struct(`{"n":"3"}`)})
	events, _, _, err := remoteRun(t, t.Context(), []string{"t"}, client{tool}, nil, calls, et.Text("ok"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`root_agent: response t{"result":"1"}`, `root_agent: response t{"result":"2"}`,
		`root_agent: response t{"result":"3"}`}
	if len(events) != 3 || len(events[1].Content.Parts) != 3 {
		t.Fatalf("want one merged response event: %v", et.Events(events))
	}
	if diff := cmp.Diff(want, et.Events(events)[3:6]); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

func TestNewClientToolErrors(t *testing.T) {
	t.Parallel()
	noop := channelFunc(func(context.Context, *tools.ClientCall) (*tools.ClientResult, error) {
		return &tools.ClientResult{}, nil
	})
	tests := []struct {
		name string
		cfg  tools.ClientToolConfig
	}{
		{"no name", tools.ClientToolConfig{Declaration: tools.ClientDeclaration{}, Channel: noop}},
		{"no declaration", tools.ClientToolConfig{Channel: noop}},
		{"no channel", tools.ClientToolConfig{Declaration: tools.ClientDeclaration{Name: "t"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := tools.NewClientTool(tt.cfg); err == nil {
				t.Error("want an error")
			}
		})
	}
}

// BenchmarkRemoteToolInvocation runs an invocation whose model calls one
// client tool: call, response, answer.
func BenchmarkRemoteToolInvocation(b *testing.B) {
	ch := channelFunc(func(context.Context, *tools.ClientCall) (*tools.ClientResult, error) {
		return &tools.ClientResult{Response: structpb.NewStringValue("sunny")}, nil
	})
	tool, err := tools.NewClientTool(tools.ClientToolConfig{Declaration: tools.ClientDeclaration{Name: "t"}, Channel: ch})
	if err != nil {
		b.Fatal(err)
	}
	agent, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: modelName,
		Toolsets: []runtime.Toolset{tools.NewRemote("t")}})
	if err != nil {
		b.Fatal(err)
	}
	h := et.New(b, agent)
	m := scripted.New(modelName)
	m.SetRecording(false)
	h.Models.Add(m)
	c := client{tool}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		sid := h.NewSession(b, map[string]any{"city": "Paris"})
		m.Enqueue(et.Call("t", `{"city":"Paris"}`), et.Text("It is sunny."))
		b.StartTimer()
		n := 0
		for _, err := range h.Runner.Run(b.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
			NewMessage: et.UserText("hi"), RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: c}) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 3 {
			b.Fatalf("events = %d, want 3", n)
		}
	}
}
