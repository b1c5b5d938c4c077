package a2a

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// BenchmarkToA2AEvents converts a model event with text and a function
// call, as each event of a served invocation is, and aggregates it.
func BenchmarkToA2AEvents(b *testing.B) {
	args, _ := structpb.NewStruct(map[string]any{"city": "Paris", "days": 3.0})
	ev := &v1.Event{Id: "e1", InvocationId: "i1", Author: "agent", Content: &v1.Content{Role: "model", Parts: []*v1.Part{
		{Text: "Let me check."}, {FunctionCall: &v1.FunctionCall{Id: "c1", Name: "get_weather", Args: args}},
	}}, Actions: &v1.EventActions{}}
	s := session{appName: "app", userID: "u", sessionID: "s"}
	info := &a2a.Task{ID: "t", ContextID: "c"}
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		g := newAggregator()
		for _, u := range toA2AEvents(s, info, ev, now) {
			g.process(u)
		}
	}
}

// TestBehaviorEventMetadata: a status update carries ADK's context
// metadata; the actions are dumped with their four maps present.
func TestBehaviorEventMetadata(t *testing.T) {
	t.Parallel()
	ev := &v1.Event{Id: "e1", InvocationId: "i1", Author: "agent", Branch: "root.agent",
		Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Hi"}}}, Actions: &v1.EventActions{}}
	out := toA2AEvents(session{appName: "app", userID: "u", sessionID: "s"}, &a2a.Task{ID: "t", ContextID: "c"}, ev, time.Now())
	if len(out) != 1 {
		t.Fatalf("%d updates", len(out))
	}
	got, err := json.Marshal(out[0].(*a2a.TaskStatusUpdateEvent).Metadata)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"adk_actions":{"artifactDelta":{},"requestedAuthConfigs":{},"requestedToolConfirmations":{},"stateDelta":{}},"adk_app_name":"app","adk_author":"agent","adk_branch":"root.agent","adk_event_id":"e1","adk_invocation_id":"i1","adk_session_id":"s","adk_user_id":"u"}`
	if string(got) != want {
		t.Fatalf("metadata\n got %s\nwant %s", got, want)
	}
}

// TestCustomMetadataText: an event's custom metadata travels as the text
// ADK writes of the dict: str() in 1.x, json.dumps() in 2.x (both recorded
// from ADK's A2A server).
func TestCustomMetadataText(t *testing.T) {
	t.Parallel()
	meta, _ := structpb.NewStruct(map[string]any{"a2a_metadata": map[string]any{"trace": "t-1", "n": 2}})
	ev := &v1.Event{CustomMetadata: meta}
	for _, tc := range []struct {
		adk2 bool
		want string
	}{
		{false, `{'a2a_metadata': {'n': 2, 'trace': 't-1'}}`},
		{true, `{"a2a_metadata": {"n": 2, "trace": "t-1"}}`},
	} {
		if got := (session{adk2: tc.adk2}).metadata(ev)["adk_custom_metadata"]; got != tc.want {
			t.Errorf("adk2=%v: adk_custom_metadata = %#v, want %s", tc.adk2, got, tc.want)
		}
	}
}
