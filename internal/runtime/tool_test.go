package runtime_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// TestToolResult checks the function responses of what tools return;
// Parts are wrapped as google-adk 1.39.1 wraps them, in the JSON
// google-genai makes of them (snake_case, URL-safe base64), as probed.
func TestToolResult(t *testing.T) {
	t.Parallel()
	image := &v1.Part{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte("PNG\xff\xfe")}}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"object", map[string]any{"a": 1}, `{"a": 1}`},
		{"struct", et.Struct(`{"a": 1}`), `{"a": 1}`},
		{"object value", structpb.NewStructValue(et.Struct(`{"a": 1}`)), `{"a": 1}`},
		{"string", "hi", `{"result": "hi"}`},
		{"null value", structpb.NewNullValue(), `{"result": null}`},
		{"list", []any{"a", 1.0}, `{"result": ["a", 1]}`},
		{"part", &v1.Part{Text: "single"}, `{"result": {"text": "single"}}`},
		{"parts", []*v1.Part{image, {Text: "caption"}},
			`{"result": [{"inline_data": {"data": "UE5H__4=", "mime_type": "image/png"}}, {"text": "caption"}]}`},
		{"call part", &v1.Part{FunctionCall: &v1.FunctionCall{Id: "c", Name: "f", Args: et.Struct(`{"x": true}`)}, Thought: true},
			`{"result": {"function_call": {"id": "c", "name": "f", "args": {"x": true}}, "thought": true}}`},
	}
	for _, tt := range tests {
		got, err := runtime.ToolResult(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if d := cmp.Diff(et.Struct(tt.want), got, protocmp.Transform()); d != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, d)
		}
	}
	if got, err := runtime.ToolResult(nil); got != nil || err != nil {
		t.Errorf("ToolResult(nil) = %v, %v", got, err)
	}
	if _, err := runtime.ToolResult(make(chan int)); err == nil {
		t.Error("ToolResult(chan) succeeded")
	}
}
