package a2a

import (
	"encoding/json"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func mustStruct(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBehaviorPartConversion: parts take ADK's A2A forms (function calls
// and responses as data parts typed by adk_type, thoughts marked
// adk_thought, bytes base64) and come back unchanged.
func TestBehaviorPartConversion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		part *v1.Part
		want string
	}{
		{"text", &v1.Part{Text: "hi"}, `{"kind":"text","text":"hi"}`},
		{"thought", &v1.Part{Text: "hmm", Thought: true}, `{"kind":"text","text":"hmm","metadata":{"adk_thought":true}}`},
		{"function call", &v1.Part{FunctionCall: &v1.FunctionCall{Id: "c1", Name: "f", Args: mustStruct(t, map[string]any{"a": 1.0})}, ThoughtSignature: []byte("sig")},
			`{"kind":"data","data":{"args":{"a":1},"id":"c1","name":"f"},"metadata":{"adk_thought_signature":"c2ln","adk_type":"function_call"}}`},
		{"function response", &v1.Part{FunctionResponse: &v1.FunctionResponse{Id: "c1", Name: "f", Response: mustStruct(t, map[string]any{"ok": true})}},
			`{"kind":"data","data":{"id":"c1","name":"f","response":{"ok":true}},"metadata":{"adk_type":"function_response"}}`},
		{"executable code", &v1.Part{ExecutableCode: &v1.ExecutableCode{Language: "PYTHON", Code: "print(1)"}},
			`{"kind":"data","data":{"code":"print(1)","language":"PYTHON"},"metadata":{"adk_type":"executable_code"}}`},
		{"code result", &v1.Part{CodeExecutionResult: &v1.CodeExecutionResult{Outcome: "OUTCOME_OK", Output: "1"}},
			`{"kind":"data","data":{"outcome":"OUTCOME_OK","output":"1"},"metadata":{"adk_type":"code_execution_result"}}`},
		{"inline bytes", &v1.Part{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte{1, 2}, DisplayName: "a.png"}},
			`{"kind":"file","file":{"mimeType":"image/png","name":"a.png","bytes":"AQI="}}`},
		{"file uri", &v1.Part{FileData: &v1.FileData{MimeType: "text/plain", FileUri: "gs://b/o"}},
			`{"kind":"file","file":{"mimeType":"text/plain","uri":"gs://b/o"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ap := toA2APart(tt.part)
			b, err := json.Marshal(ap)
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			_ = json.Unmarshal(b, &got)
			_ = json.Unmarshal([]byte(tt.want), &want)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("A2A form (-want +got):\n%s", d)
			}
			back, err := fromA2APart(ap)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.part, back, protocmp.Transform()); d != "" {
				t.Fatalf("round trip (-want +got):\n%s", d)
			}
		})
	}
}

// TestBehaviorUntypedDataPart: a data part ADK does not type travels as
// tagged inline text and comes back as the same data part.
func TestBehaviorUntypedDataPart(t *testing.T) {
	t.Parallel()
	dp := a2a.DataPart{Data: map[string]any{"x": 1.0}}
	p, err := fromA2APart(dp)
	if err != nil {
		t.Fatal(err)
	}
	if p.GetInlineData().GetMimeType() != "text/plain" || string(p.GetInlineData().GetData()) != `<a2a_datapart_json>{"data":{"x":1},"kind":"data"}</a2a_datapart_json>` {
		t.Fatalf("inline = %q", p.GetInlineData().GetData())
	}
	back, ok := toA2APart(p).(a2a.DataPart)
	if !ok || back.Data["x"] != 1.0 {
		t.Fatalf("back = %#v", toA2APart(p))
	}
}
