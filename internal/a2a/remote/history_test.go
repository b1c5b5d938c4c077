package remote

import (
	"encoding/json"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestMessagePartsUserInput: the user's parts carry is_user_input; in ADK
// 2.x a function response answering no call of this agent travels as text,
// still the user's, while one answering its own call stays a data part.
func TestMessagePartsUserInput(t *testing.T) {
	t.Parallel()
	a, err := New(Config{Name: "forecast", AgentCard: "http://127.0.0.1:1/card.json"})
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := structpb.NewStruct(map[string]any{"b": "x", "a": 1})
	events := []*v1.Event{
		{Author: "forecast", Content: &v1.Content{Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: "own", Name: "ask"}}}}},
		{Author: "user", Content: &v1.Content{Parts: []*v1.Part{
			{Text: "hi"},
			{FunctionResponse: &v1.FunctionResponse{Id: "other", Name: "lookup", Response: resp}},
			{FunctionResponse: &v1.FunctionResponse{Id: "own", Name: "ask", Response: resp}},
		}}},
	}
	for _, tc := range []struct {
		adk2 bool
		want string
	}{
		{false, `[{"kind":"text","metadata":{"is_user_input":true},"text":"hi"},` +
			`{"data":{"id":"other","name":"lookup","response":{"a":1,"b":"x"}},"kind":"data","metadata":{"adk_type":"function_response","is_user_input":true}},` +
			`{"data":{"id":"own","name":"ask","response":{"a":1,"b":"x"}},"kind":"data","metadata":{"adk_type":"function_response","is_user_input":true}}]`},
		{true, `[{"kind":"text","metadata":{"is_user_input":true},"text":"hi"},` +
			`{"kind":"text","metadata":{"is_user_input":true},"text":"Tool lookup returned: {\"a\": 1, \"b\": \"x\"}"},` +
			`{"data":{"id":"own","name":"ask","response":{"a":1,"b":"x"}},"kind":"data","metadata":{"adk_type":"function_response","is_user_input":true}}]`},
	} {
		parts, _ := a.messageParts(events, tc.adk2)
		b, _ := json.Marshal(parts[1:]) // after this agent's own call
		var v any
		_ = json.Unmarshal(b, &v)
		b, _ = json.Marshal(v)
		if string(b) != tc.want {
			t.Errorf("adk2=%v parts\n%s\nwant\n%s", tc.adk2, b, tc.want)
		}
	}
}
