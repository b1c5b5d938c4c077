package contents_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
)

func TestBehaviorC1BranchVisibility(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, invocationBranch, eventBranch string
		visible                             bool
	}{
		{"no invocation branch", "", "p.child", true},
		{"no event branch", "p.child", "", true},
		{"same branch", "p.child", "p.child", true},
		{"ancestor branch", "p.child.grandchild", "p.child", true},
		{"root ancestor", "p.child.grandchild", "p", true},
		{"parent does not see child", "p", "p.child", false},
		{"sibling", "p.child", "p.child2", false},
		{"sibling seen from child", "p.child2", "p.child", false},
		{"prefix look-alike", "p.child000", "p.child", false},
		{"look-alike the other way", "p.child", "p.child000", false},
		{"underscore look-alike", "p.child_agent", "p.child", false},
		{"underscore look-alike reversed", "p.child", "p.child_agent", false},
		{"cousin", "p.a.x", "p.b", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := user("hello", branch(tc.eventBranch))
			got := mustBuild(t, []*v1.Event{e}, agent, tc.invocationBranch, contents.Options{})
			var want []*v1.Content
			if tc.visible {
				want = []*v1.Content{userContent("hello")}
			}
			if d := diff(want, got); d != "" {
				t.Errorf("Build() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestBehaviorC2OtherAgentContext(t *testing.T) {
	t.Parallel()
	inline := &v1.Part{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte{1, 2}}}
	file := &v1.Part{FileData: &v1.FileData{MimeType: "text/plain", FileUri: "gs://b/f"}}
	code := &v1.Part{ExecutableCode: &v1.ExecutableCode{Code: "print(1)"}}
	tests := []struct {
		name      string
		events    []*v1.Event
		agentName string
		want      []*v1.Content
	}{
		{
			name:      "text",
			events:    []*v1.Event{user("hi"), said("helper", "It is sunny.")},
			agentName: agent,
			want: []*v1.Content{
				userContent("hi"),
				content("user", textPart("For context:"), textPart("[helper] said: It is sunny.")),
			},
		},
		{
			name: "call and response printed as Python dicts",
			events: []*v1.Event{
				calls("helper", callPart("c1", "search", map[string]any{"query": "x", "ok": true, "v": nil})),
				responds("helper", respPart("c1", "search", map[string]any{"result": []any{1, "a"}, "n": 2.5})),
			},
			agentName: agent,
			want: []*v1.Content{
				content("user", textPart("For context:"),
					textPart("[helper] called tool `search` with parameters: {'ok': True, 'query': 'x', 'v': None}")),
				content("user", textPart("For context:"),
					textPart("[helper] `search` tool returned result: {'n': 2.5, 'result': [1, 'a']}")),
			},
		},
		{
			name: "call args in the model's key order",
			events: []*v1.Event{
				calls("helper", withKeyOrder(callPart("c1", "search", map[string]any{"query": "x", "ok": true, "v": nil}),
					"query", "ok", "v")),
			},
			agentName: agent,
			want: []*v1.Content{
				content("user", textPart("For context:"),
					textPart("[helper] called tool `search` with parameters: {'query': 'x', 'ok': True, 'v': None}")),
			},
		},
		{
			name: "no args prints None",
			events: []*v1.Event{
				calls("helper", callPart("c1", "now", nil)),
			},
			agentName: agent,
			want: []*v1.Content{
				content("user", textPart("For context:"), textPart("[helper] called tool `now` with parameters: None")),
			},
		},
		{
			name: "thoughts and blank text dropped, data parts kept",
			events: []*v1.Event{
				event("helper", parts(
					&v1.Part{Text: "secret plan", Thought: true},
					textPart("  \n"),
					inline,
					textPart("Look."),
					file,
					code,
				)),
			},
			agentName: agent,
			want: []*v1.Content{
				content("user", textPart("For context:"), inline, textPart("[helper] said: Look."), file, code),
			},
		},
		{
			name:      "only the preamble left drops the event",
			events:    []*v1.Event{user("hi"), event("helper", parts(textPart(" "), &v1.Part{Text: "t", Thought: true}))},
			agentName: agent,
			want:      []*v1.Content{userContent("hi")},
		},
		{
			name:      "own and user events unchanged",
			events:    []*v1.Event{user("hi"), said(agent, "hello")},
			agentName: agent,
			want:      []*v1.Content{userContent("hi"), modelContent("hello")},
		},
		{
			name:      "no agent name converts nothing",
			events:    []*v1.Event{said("helper", "hello")},
			agentName: "",
			want:      []*v1.Content{modelContent("hello")},
		},
		{
			name:      "quotes and non-ASCII in args",
			events:    []*v1.Event{calls("helper", callPart("c1", "say", map[string]any{"text": "it's café\n"}))},
			agentName: agent,
			want: []*v1.Content{
				content("user", textPart("For context:"), textPart("[helper] called tool `say` with parameters: {'text': \"it's café\\n\"}")),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := mustBuild(t, tc.events, tc.agentName, "", contents.Options{})
			if d := diff(tc.want, got); d != "" {
				t.Errorf("Build() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestBehaviorC3SkippedEvents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		event *v1.Event
	}{
		{"no content", &v1.Event{Author: "user"}},
		{"empty role", user("hi", role(""))},
		{"no parts", event("user", nil)},
		{"thought only", event(agent, parts(&v1.Part{Text: "thinking", Thought: true}))},
		{"empty text only", event(agent, parts(textPart(""), textPart("")))},
		{"nothing but empty parts", event(agent, parts(&v1.Part{}))},
		{"credential request call", calls(agent, callPart("adk-1", "adk_request_credential", nil))},
		{"credential response", responds("user", respPart("adk-1", "adk_request_credential", nil))},
		{"confirmation request call", calls(agent, callPart("adk-2", "adk_request_confirmation", nil))},
		{"confirmation response", responds("user", respPart("adk-2", "adk_request_confirmation", map[string]any{"confirmed": true}))},
		{"input request call", calls(agent, callPart("adk-3", "adk_request_input", nil))},
		{"input response", responds("user", respPart("adk-3", "adk_request_input", nil))},
		{"framework call", calls(agent, callPart("adk-4", "adk_framework", nil))},
		{"framework response", responds(agent, respPart("adk-4", "adk_framework", nil))},
		{"framework call beside a visible part", calls(agent, textPart("hi"), callPart("adk-5", "adk_request_confirmation", nil))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			events := []*v1.Event{user("before"), tc.event, user("after")}
			got := mustBuild(t, events, agent, "", contents.Options{})
			want := []*v1.Content{userContent("before"), userContent("after")}
			if d := diff(want, got); d != "" {
				t.Errorf("Build() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestBehaviorC3CallsAreNeverInvisible(t *testing.T) {
	t.Parallel()
	thoughtCall := &v1.Part{Thought: true, FunctionCall: &v1.FunctionCall{Id: "c1", Name: "tool"}}
	thoughtResp := &v1.Part{Thought: true, FunctionResponse: &v1.FunctionResponse{Id: "c1", Name: "tool"}}
	events := []*v1.Event{user("go"), calls(agent, thoughtCall), responds(agent, thoughtResp)}
	got := mustBuild(t, events, agent, "", contents.Options{})
	if d := diff(contentsOf(events...), got); d != "" {
		t.Errorf("Build() mismatch (-want +got):\n%s", d)
	}
}

func TestBehaviorC4ClientIDsCleared(t *testing.T) {
	t.Parallel()
	events := []*v1.Event{
		user("weather?"),
		calls(agent, textPart("checking"), callPart("adk-123", "weather", map[string]any{"city": "Paris"}), callPart("call_9", "time", nil)),
		responds(agent, respPart("adk-123", "weather", map[string]any{"t": 21}), respPart("call_9", "time", map[string]any{"h": 9})),
		said(agent, "21 degrees"),
	}
	stored := make([]*v1.Event, len(events))
	for i, e := range events {
		stored[i] = proto.CloneOf(e)
	}
	got := mustBuild(t, events, agent, "", contents.Options{})
	want := []*v1.Content{
		userContent("weather?"),
		content("model", textPart("checking"), callPart("", "weather", map[string]any{"city": "Paris"}), callPart("call_9", "time", nil)),
		content("user", respPart("", "weather", map[string]any{"t": 21}), respPart("call_9", "time", map[string]any{"h": 9})),
		modelContent("21 degrees"),
	}
	if d := diff(want, got); d != "" {
		t.Errorf("Build() mismatch (-want +got):\n%s", d)
	}
	if d := cmp.Diff(stored, events, protocmp.Transform()); d != "" {
		t.Errorf("Build() changed the stored events (-before +after):\n%s", d)
	}
	// Contents without client ids are the stored messages themselves.
	if got[0] != events[0].GetContent() || got[3] != events[3].GetContent() {
		t.Error("Build() copied contents that needed no change")
	}
	// Unchanged parts of a copied content are shared too.
	if got[1].GetParts()[0] != events[1].GetContent().GetParts()[0] {
		t.Error("Build() copied a part that needed no change")
	}
}

func TestBehaviorC5FunctionResponses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		events []*v1.Event
		want   []*v1.Content
	}{
		{
			name: "response right after its call is kept",
			events: []*v1.Event{
				user("q"),
				calls(agent, callPart("c1", "f", nil)),
				responds(agent, respPart("c1", "f", map[string]any{"r": 1})),
			},
			want: []*v1.Content{
				userContent("q"),
				content("model", callPart("c1", "f", nil)),
				content("user", respPart("c1", "f", map[string]any{"r": 1})),
			},
		},
		{
			name: "latest response replaces the earlier one and drops what followed the call",
			events: []*v1.Event{
				user("start the job"),
				calls(agent, callPart("c1", "job", nil)),
				responds(agent, respPart("c1", "job", map[string]any{"status": "pending"})),
				said(agent, "started"),
				user("is it done?"),
				responds("user", respPart("c1", "job", map[string]any{"status": "done"})),
			},
			want: []*v1.Content{
				userContent("start the job"),
				content("model", callPart("c1", "job", nil)),
				content("user", respPart("c1", "job", map[string]any{"status": "done"})),
			},
		},
		{
			name: "responses to the same call event are merged, new ids appended",
			events: []*v1.Event{
				user("q"),
				calls(agent, callPart("a", "fa", nil), callPart("b", "fb", nil)),
				responds(agent, respPart("a", "fa", map[string]any{"v": 1}), textPart("note")),
				said(agent, "waiting"),
				responds("user", respPart("b", "fb", map[string]any{"v": 2}), respPart("a", "fa", map[string]any{"v": 3})),
			},
			want: []*v1.Content{
				userContent("q"),
				content("model", callPart("a", "fa", nil), callPart("b", "fb", nil)),
				content("user",
					respPart("a", "fa", map[string]any{"v": 3}),
					textPart("note"),
					respPart("b", "fb", map[string]any{"v": 2})),
			},
		},
		{
			name: "async response in history moves right after its call",
			events: []*v1.Event{
				user("q"),
				calls(agent, callPart("c1", "slow", nil)),
				said(agent, "working on it"),
				responds(agent, respPart("c1", "slow", map[string]any{"ok": true})),
				user("thanks"),
			},
			want: []*v1.Content{
				userContent("q"),
				content("model", callPart("c1", "slow", nil)),
				content("user", respPart("c1", "slow", map[string]any{"ok": true})),
				modelContent("working on it"),
				userContent("thanks"),
			},
		},
		{
			name: "async responses in several events are merged after the call",
			events: []*v1.Event{
				calls(agent, callPart("a", "fa", nil), callPart("b", "fb", nil)),
				said(agent, "one moment"),
				responds(agent, respPart("b", "fb", map[string]any{"v": "b"})),
				user("and?"),
				responds(agent, respPart("a", "fa", map[string]any{"v": "a"})),
				user("ok"),
			},
			want: []*v1.Content{
				content("model", callPart("a", "fa", nil), callPart("b", "fb", nil)),
				content("user", respPart("b", "fb", map[string]any{"v": "b"}), respPart("a", "fa", map[string]any{"v": "a"})),
				modelContent("one moment"),
				userContent("and?"),
				userContent("ok"),
			},
		},
		{
			name: "a response in history that answers no call is dropped",
			events: []*v1.Event{
				user("q"),
				responds(agent, respPart("ghost", "f", nil)),
				user("still there?"),
			},
			want: []*v1.Content{userContent("q"), userContent("still there?")},
		},
		{
			name: "an earlier call event with the same id wins",
			events: []*v1.Event{
				calls(agent, callPart("x", "f", nil)),
				responds(agent, respPart("x", "f", map[string]any{"n": 1})),
				calls(agent, callPart("x", "f", nil)),
				said(agent, "again"),
				responds("user", respPart("x", "f", map[string]any{"n": 2})),
			},
			want: []*v1.Content{
				content("model", callPart("x", "f", nil)),
				content("user", respPart("x", "f", map[string]any{"n": 2})),
			},
		},
		{
			name: "client ids are cleared after merging",
			events: []*v1.Event{
				calls(agent, callPart("adk-1", "job", nil)),
				responds(agent, respPart("adk-1", "job", map[string]any{"s": "pending"})),
				user("done?"),
				responds("user", respPart("adk-1", "job", map[string]any{"s": "done"})),
			},
			want: []*v1.Content{
				content("model", callPart("", "job", nil)),
				content("user", respPart("", "job", map[string]any{"s": "done"})),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stored := make([]*v1.Event, len(tc.events))
			for i, e := range tc.events {
				stored[i] = proto.CloneOf(e)
			}
			got := mustBuild(t, tc.events, agent, "", contents.Options{})
			if d := diff(tc.want, got); d != "" {
				t.Errorf("Build() mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff(stored, tc.events, protocmp.Transform()); d != "" {
				t.Errorf("Build() changed the stored events (-before +after):\n%s", d)
			}
		})
	}
}

func TestBehaviorC5Errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		events  []*v1.Event
		wantErr string
		is      error
	}{
		{
			name:    "orphan response",
			events:  []*v1.Event{user("q"), said(agent, "a"), responds("user", respPart("x", "f", nil))},
			wantErr: "No function call event found for function responses ids: {'x'}",
			is:      contents.ErrNoFunctionCall,
		},
		{
			name: "orphan responses, ids in order, unset id as None",
			events: []*v1.Event{
				user("q"),
				calls(agent, callPart("other", "f", nil)),
				responds("user", respPart("b", "f", nil), respPart("a", "f", nil), respPart("", "f", nil), respPart("b", "f", nil)),
			},
			wantErr: "No function call event found for function responses ids: {'b', 'a', None}",
			is:      contents.ErrNoFunctionCall,
		},
		{
			name: "responses to calls of two events",
			events: []*v1.Event{
				calls(agent, callPart("a", "f", nil)),
				responds(agent, respPart("a", "f", nil)),
				calls(agent, callPart("b", "f", nil)),
				said(agent, "waiting"),
				responds("user", respPart("a", "f", nil), respPart("b", "f", nil)),
			},
			wantErr: "Last response event should only contain the responses for the function calls in the same" +
				" function call event. Function call ids found : {'b'}, function response ids provided: {'a', 'b'}",
			is: contents.ErrMixedFunctionResponses,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := contents.Build(tc.events, agent, "", contents.Options{})
			if err == nil {
				t.Fatalf("Build() = %v, want an error", got)
			}
			if err.Error() != tc.wantErr {
				t.Errorf("error = %q\nwant    %q", err.Error(), tc.wantErr)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.is)
			}
		})
	}
}

// withKeyOrder sets the key order of the call in p.
func withKeyOrder(p *v1.Part, keys ...string) *v1.Part {
	p.FunctionCall.KeyOrder = keys
	return p
}
