package runtime_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

func TestBehaviorL1IsFinalResponse(t *testing.T) {
	t.Parallel()
	text := &v1.Part{Text: "hi"}
	call := &v1.Part{FunctionCall: &v1.FunctionCall{Name: "f"}}
	resp := &v1.Part{FunctionResponse: &v1.FunctionResponse{Name: "f"}}
	codeResult := &v1.Part{CodeExecutionResult: &v1.CodeExecutionResult{Outcome: "OUTCOME_OK"}}
	content := func(parts ...*v1.Part) *v1.Content { return &v1.Content{Role: "model", Parts: parts} }
	tests := []struct {
		name string
		ev   *v1.Event
		want bool
	}{
		{"text", &v1.Event{Content: content(text)}, true},
		{"no content", &v1.Event{}, true},
		{"function call", &v1.Event{Content: content(text, call)}, false},
		{"function response", &v1.Event{Content: content(resp)}, false},
		{"partial", &v1.Event{Content: content(text), Partial: proto.Bool(true)}, false},
		{"trailing code execution result", &v1.Event{Content: content(text, codeResult)}, false},
		{"code execution result then text", &v1.Event{Content: content(codeResult, text)}, true},
		{"skip_summarization wins", &v1.Event{Content: content(resp), Actions: &v1.EventActions{SkipSummarization: true}}, true},
		{"long-running calls win", &v1.Event{Content: content(call), LongRunningToolIds: []string{"x"}}, true},
	}
	for _, tt := range tests {
		if got := runtime.IsFinalResponse(tt.ev); got != tt.want {
			t.Errorf("%s: IsFinalResponse = %v, want %v", tt.name, got, tt.want)
		}
	}
}
