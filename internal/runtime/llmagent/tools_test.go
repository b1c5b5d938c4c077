package llmagent_test

import (
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

var uuid4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestBehaviorT1Ids(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Tools: []runtime.Tool{echoTool(t, "echo")}})
	withID := et.Calls(&v1.FunctionCall{Id: "model-id", Name: "echo", Args: et.Struct(`{}`)})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{et.Call("echo", `{}`), withID, et.Text("done")})
	events := h.RunText(t, sid, "hi")
	if len(events) != 5 {
		t.Fatalf("events = %v", et.Events(events))
	}
	gen := events[0].Content.Parts[0].FunctionCall.Id
	if !strings.HasPrefix(gen, "adk-") || !uuid4.MatchString(strings.TrimPrefix(gen, "adk-")) {
		t.Errorf("generated call id = %q, want adk-<uuid4>", gen)
	}
	if got := events[1].Content.Parts[0].FunctionResponse.Id; got != gen {
		t.Errorf("response id = %q, want %q", got, gen)
	}
	if got := events[3].Content.Parts[0].FunctionResponse.Id; got != "model-id" {
		t.Errorf("response to a model id = %q, want model-id", got)
	}
	// A model's own id stays in the request; adk- ids are cleared.
	last := m.Requests()[2].Contents
	if last[1].Parts[0].FunctionCall.Id != "" || last[3].Parts[0].FunctionCall.Id != "model-id" {
		t.Errorf("request ids = %q, %q", last[1].Parts[0].FunctionCall.Id, last[3].Parts[0].FunctionCall.Id)
	}
	inv := events[0].InvocationId
	for _, ev := range events {
		if ev.InvocationId != inv || !strings.HasPrefix(inv, "e-") || !uuid4.MatchString(strings.TrimPrefix(inv, "e-")) {
			t.Errorf("invocation id = %q, want one e-<uuid4>", ev.InvocationId)
		}
		if !uuid4.MatchString(ev.Id) {
			t.Errorf("event id = %q, want uuid4", ev.Id)
		}
	}
}

func TestBehaviorT2ResultWrapping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		result any
		want   string
	}{
		{"object as is", map[string]any{"a": 1}, `{"a":1}`},
		{"string wrapped", "sunny", `{"result":"sunny"}`},
		{"number wrapped", 3.5, `{"result":3.5}`},
		{"list wrapped", []any{1, "x"}, `{"result":[1,"x"]}`},
		{"nothing is null", nil, `{"result":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tool := toolFunc(t, "get", false, func(*runtime.ToolContext, *structpb.Struct) (any, error) { return tt.result, nil })
			h, _, sid := setup(t, newAgent(t, llmagent.Config{Tools: []runtime.Tool{tool}}),
				[]*v1.LlmResponse{et.Call("get", `{}`), et.Text("ok")})
			events := h.RunText(t, sid, "hi")
			if got := et.Events(events)[1]; got != "root_agent: response get"+tt.want {
				t.Errorf("response = %s, want response get%s", got, tt.want)
			}
			if events[1].Author != "root_agent" || events[1].Content.Role != "user" {
				t.Errorf("response event author/role = %s/%s", events[1].Author, events[1].Content.Role)
			}
		})
	}
}

func TestBehaviorT3MissingMandatoryArgs(t *testing.T) {
	t.Parallel()
	ran := false
	params := et.Struct(`{"type":"object","required":["city","date"]}`)
	tool, err := tools.NewFunction(tools.FunctionConfig{Name: "book", Parameters: params,
		Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) { ran = true; return "booked", nil }})
	if err != nil {
		t.Fatal(err)
	}
	h, _, sid := setup(t, newAgent(t, llmagent.Config{Tools: []runtime.Tool{tool}}),
		[]*v1.LlmResponse{et.Call("book", `{"date":"today"}`), et.Text("ok")})
	events := h.RunText(t, sid, "hi")
	resp := events[1].Content.Parts[0].FunctionResponse.Response.Fields["error"].GetStringValue()
	want := "Invoking `book()` failed as the following mandatory input parameters are not present:\ncity\n" +
		"You could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters."
	if resp != want || ran {
		t.Errorf("error = %q, want %q", resp, want)
	}
}

func TestBehaviorT4UnknownTool(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Tools: []runtime.Tool{echoTool(t, "echo")}})
	h, _, sid := setup(t, agent, []*v1.LlmResponse{et.Call("nope", `{}`)})
	events, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{})
	var rerr *runtime.Error
	if !errors.As(err, &rerr) || rerr.Code != runtime.CodeFailedPrecondition ||
		!strings.HasPrefix(rerr.Message, "Tool 'nope' not found.\nAvailable tools: echo\n") {
		t.Fatalf("err = %v, want FAILED_PRECONDITION Tool 'nope' not found", err)
	}
	if len(events) != 1 {
		t.Errorf("the call event must be streamed before the failure")
	}
	// The failed invocation closes its call, so that the next turn's
	// history is valid.
	diffPairs(t, "stored", et.Events(h.Session(t, sid).Events), []string{
		"user: hi",
		"root_agent: call nope{}",
		`root_agent: response nope{"error":"The tool call was not completed: the invocation failed."}`,
	})

	// The names come in declaration order: the transfer tool, then the
	// agent's tools as listed.
	child := newAgent(t, llmagent.Config{Name: "helper", Description: "Helps."})
	parent := newAgent(t, llmagent.Config{SubAgents: []runtime.Agent{child},
		Tools: []runtime.Tool{echoTool(t, "zeta"), echoTool(t, "alpha"), echoTool(t, "mid")}})
	h, _, sid = setup(t, parent, []*v1.LlmResponse{et.Call("nope", `{}`)})
	_, err = h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{})
	if !errors.As(err, &rerr) || !strings.HasPrefix(rerr.Message, "Tool 'nope' not found.\nAvailable tools: transfer_to_agent, zeta, alpha, mid\n") {
		t.Errorf("err = %v, want the tools in declaration order", err)
	}

	plugin := &runtime.Plugin{Name: "rescue", OnToolError: func(_ *runtime.ToolContext, tool runtime.Tool, _ *structpb.Struct, err error) (*structpb.Struct, error) {
		return structpb.NewStruct(map[string]any{"error": "no such tool: " + tool.Name()})
	}}
	h, _, sid = setup(t, newAgent(t, llmagent.Config{}), []*v1.LlmResponse{et.Call("nope", `{}`), et.Text("sorry")}, plugin)
	events = h.RunText(t, sid, "hi")
	diffPairs(t, "rescued", et.Events(events), []string{
		"root_agent: call nope{}",
		`root_agent: response nope{"error":"no such tool: nope"}`,
		"root_agent: sorry",
	})
}

func TestBehaviorT5ParallelCallsMerge(t *testing.T) {
	t.Parallel()
	// In a bubble the tools' pauses pass on a fake clock, all at once
	// when the calls run in parallel.
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		running, peak := 0, 0
		slow := func(delay time.Duration, key string) func(*runtime.ToolContext, *structpb.Struct) (any, error) {
			return func(tctx *runtime.ToolContext, args *structpb.Struct) (any, error) {
				mu.Lock()
				running++
				peak = max(peak, running)
				mu.Unlock()
				time.Sleep(delay)
				mu.Lock()
				running--
				mu.Unlock()
				tctx.State().Set(key, structpb.NewStringValue(args.Fields["v"].GetStringValue()))
				tctx.State().Set("nested", structpb.NewStructValue(et.Struct(`{"`+key+`":true}`)))
				return "ok " + key, nil
			}
		}
		a := toolFunc(t, "a", false, slow(40*time.Millisecond, "ka"))
		b := toolFunc(t, "b", false, slow(5*time.Millisecond, "kb"))
		calls := et.Calls(
			&v1.FunctionCall{Name: "a", Args: et.Struct(`{"v":"1"}`)},
			&v1.FunctionCall{Name: "b", Args: et.Struct(`{"v":"2"}`)},
			&v1.FunctionCall{Name: "a", Args: et.Struct(`{"v":"3"}`)},
		)
		h, _, sid := setup(t, newAgent(t, llmagent.Config{Tools: []runtime.Tool{a, b}}), []*v1.LlmResponse{calls, et.Text("done")})
		events := h.RunText(t, sid, "hi")
		if len(events) != 3 {
			t.Fatalf("events = %v, want call, one merged response, answer", et.Events(events))
		}
		resp := events[1]
		diffPairs(t, "merged parts", et.Events([]*v1.Event{resp}), []string{
			`root_agent: response a{"result":"ok ka"}`,
			`root_agent: response b{"result":"ok kb"}`,
			`root_agent: response a{"result":"ok ka"}`,
		})
		for i, p := range resp.Content.Parts {
			if p.FunctionResponse.Id != events[0].Content.Parts[i].FunctionCall.Id {
				t.Errorf("part %d id does not match call %d", i, i)
			}
		}
		if peak < 2 {
			t.Errorf("peak concurrency = %d, want calls to run in parallel", peak)
		}
		delta := resp.Actions.StateDelta.AsMap()
		if delta["ka"] != "3" && delta["ka"] != "1" || delta["kb"] != "2" {
			t.Errorf("merged delta = %v", delta)
		}
		nested, _ := delta["nested"].(map[string]any)
		if nested["ka"] != true || nested["kb"] != true {
			t.Errorf("nested delta not deep-merged: %v", delta["nested"])
		}
	})
}

func TestBehaviorT6LongRunning(t *testing.T) {
	t.Parallel()
	pending := toolFunc(t, "approve", true, func(*runtime.ToolContext, *structpb.Struct) (any, error) { return nil, nil })
	h, m, sid := setup(t, newAgent(t, llmagent.Config{Tools: []runtime.Tool{pending}}),
		[]*v1.LlmResponse{et.Call("approve", `{}`), et.Text("thanks")})
	events := h.RunText(t, sid, "hi")
	if len(events) != 1 {
		t.Fatalf("events = %v, want only the call (no response, turn ends)", et.Events(events))
	}
	call := events[0].Content.Parts[0].FunctionCall
	if len(events[0].LongRunningToolIds) != 1 || events[0].LongRunningToolIds[0] != call.Id {
		t.Errorf("long_running_tool_ids = %v, want [%s]", events[0].LongRunningToolIds, call.Id)
	}
	desc := m.Requests()[0].Config.Tools[0].FunctionDeclarations[0].Description
	if want := "A test tool.\n\nNOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status."; desc != want {
		t.Errorf("description = %q", desc)
	}

	// The user later answers the call: the agent summarises without re-running the tool.
	answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
		Id: call.Id, Name: "approve", Response: et.Struct(`{"status":"approved"}`)}}}}
	events, err := h.Run(t.Context(), sid, answer, runtime.RunConfig{})
	if err != nil {
		t.Fatal(err)
	}
	diffPairs(t, "after the answer", et.Events(events), []string{"root_agent: thanks"})
	diffPairs(t, "second request", et.Contents(m.Requests()[1].Contents), []string{
		"user: hi", "model: call approve{}", `user: response approve{"status":"approved"}`,
	})
}

func TestBehaviorL11OutputKey(t *testing.T) {
	t.Parallel()
	schema := et.Struct(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
	tests := []struct {
		name   string
		cfg    llmagent.Config
		answer *v1.LlmResponse
		want   any
	}{
		{"text joined without thoughts", llmagent.Config{OutputKey: "out"},
			&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "thinking", Thought: true}, {Text: "a"}, {Text: "b"}}}}, "ab"},
		{"schema parsed", llmagent.Config{OutputKey: "out", OutputSchema: schema}, et.Text(`{"n": 3}`), map[string]any{"n": 3.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, m, sid := setup(t, newAgent(t, tt.cfg), []*v1.LlmResponse{tt.answer})
			events := h.RunText(t, sid, "hi")
			got := h.Session(t, sid).State.AsMap()["out"]
			if !cmpEqual(got, tt.want) {
				t.Errorf("state out = %#v, want %#v", got, tt.want)
			}
			if events[0].Actions.StateDelta == nil {
				t.Error("the final event does not carry the output in its delta")
			}
			if tt.cfg.OutputSchema != nil && m.Requests()[0].Config.ResponseMimeType != "application/json" {
				t.Error("output schema not set on the request")
			}
		})
	}
}

func TestBehaviorS1TempStateNotStored(t *testing.T) {
	t.Parallel()
	var seen *structpb.Value
	writer := toolFunc(t, "write", false, func(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
		tctx.State().Set("temp:scratch", structpb.NewStringValue("x"))
		tctx.State().Set("user:name", structpb.NewStringValue("Ann"))
		tctx.State().Set("cleared", nil)
		return "ok", nil
	})
	reader := toolFunc(t, "read", false, func(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
		seen, _ = tctx.State().Get("temp:scratch")
		return "ok", nil
	})
	h, _, sid := setup(t, newAgent(t, llmagent.Config{Tools: []runtime.Tool{writer, reader}}),
		[]*v1.LlmResponse{et.Call("write", `{}`), et.Call("read", `{}`), et.Text("done")})
	h.RunText(t, sid, "hi")
	if seen.GetStringValue() != "x" {
		t.Errorf("temp: value during the invocation = %v, want x", seen)
	}
	stored := h.Session(t, sid)
	st := stored.State.AsMap()
	if _, ok := st["temp:scratch"]; ok {
		t.Errorf("temp: key stored: %v", st)
	}
	if st["user:name"] != "Ann" {
		t.Errorf("user:name = %v", st["user:name"])
	}
	if v, ok := st["cleared"]; !ok || v != nil {
		t.Errorf("cleared = %v (present %v), want null", v, ok)
	}
	for _, ev := range stored.Events {
		if _, ok := ev.GetActions().GetStateDelta().GetFields()["temp:scratch"]; ok {
			t.Errorf("stored event %s carries the temp: key", ev.Id)
		}
	}
}
