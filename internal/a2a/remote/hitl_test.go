package remote

import (
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestBehaviorMockInputCall: a remote task waiting for input without a
// long-running call of its own gets ADK's mock call in place of its last
// text; a working task does not.
func TestBehaviorMockInputCall(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		state    a2a.TaskState
		wantMock bool
	}{{a2a.TaskStateInputRequired, true}, {a2a.TaskStateAuthRequired, true}, {a2a.TaskStateCompleted, false}} {
		ev := &v1.Event{Content: &v1.Content{Parts: []*v1.Part{{Text: "first"}, {Text: "Which city?"}}}}
		addMockInputCall(ev, tt.state)
		fc := ev.GetContent().GetParts()[1].GetFunctionCall()
		if (fc != nil) != tt.wantMock {
			t.Fatalf("%s: call %v", tt.state, fc)
		}
		if tt.wantMock && (fc.GetName() != mockInputCall || fc.GetArgs().GetFields()["input_required"].GetStringValue() != "Which city?" ||
			len(ev.GetLongRunningToolIds()) != 1 || ev.GetLongRunningToolIds()[0] != fc.GetId()) {
			t.Fatalf("%s: event %v", tt.state, ev)
		}
	}
}

// TestBehaviorUserFunctionResponse: the answer to a human-input call
// travels as its text ({"result": v} as v, else JSON), a credential answer
// not at all, and the message joins the call's task and context.
func TestBehaviorUserFunctionResponse(t *testing.T) {
	t.Parallel()
	meta, _ := structpb.NewStruct(map[string]any{"a2a:task_id": "t1", "a2a:context_id": "c1"})
	resp := func(m map[string]any) *structpb.Struct { s, _ := structpb.NewStruct(m); return s }
	for _, tt := range []struct {
		name     string
		response map[string]any
		want     string
	}{
		{"result", map[string]any{"result": "Paris"}, "Paris"},
		{"object", map[string]any{"city": "Zürich", "n": 2.0}, `{"city": "Z\u00fcrich", "n": 2}`},
		{"number result", map[string]any{"result": 1.5}, "1.5"},
	} {
		call := &v1.Event{Author: "helper", CustomMetadata: meta, Content: &v1.Content{Parts: []*v1.Part{
			{FunctionCall: &v1.FunctionCall{Id: "m1", Name: mockInputCall}}}}}
		answer := &v1.Event{Author: "user", Content: &v1.Content{Parts: []*v1.Part{
			{FunctionResponse: &v1.FunctionResponse{Id: "m1", Name: mockInputCall, Response: resp(tt.response)}}}}}
		msg := requestForFunctionResponse([]*v1.Event{call, answer}, false)
		if msg == nil || msg.TaskID != "t1" || msg.ContextID != "c1" || len(msg.Parts) != 1 {
			t.Fatalf("%s: message %+v", tt.name, msg)
		}
		if got := msg.Parts[0].(a2a.TextPart).Text; got != tt.want {
			t.Fatalf("%s: text %q, want %q", tt.name, got, tt.want)
		}
	}
	cred := &v1.Event{Author: "user", Content: &v1.Content{Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
		Id: "c", Name: "adk_request_credential", Response: resp(map[string]any{"auth_scheme": "x"})}}}}}
	credCall := &v1.Event{Author: "helper", Content: &v1.Content{Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: "c", Name: "adk_request_credential"}}}}}
	if msg := requestForFunctionResponse([]*v1.Event{credCall, cred}, false); msg != nil {
		t.Fatalf("credential answer sent: %+v", msg)
	}
}
