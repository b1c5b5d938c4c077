package limits

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// nested returns a value of depth n: n objects, each holding the next
// under key "k", around a number.
func nested(n int) *structpb.Value {
	v := structpb.NewNumberValue(1)
	for range n {
		v = structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"k": v}})
	}
	return v
}

// nestedList is nested with lists instead of objects.
func nestedList(n int) *structpb.Value {
	v := structpb.NewNumberValue(1)
	for range n {
		v = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{v}})
	}
	return v
}

func TestCheckDepth(t *testing.T) {
	t.Parallel()
	event := func(v *structpb.Value) *v1.Event {
		return &v1.Event{Actions: &v1.EventActions{StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{"s": v}}}}
	}
	call := func(v *structpb.Value) *v1.Content {
		return &v1.Content{Parts: []*v1.Part{{Text: "x"}, {FunctionCall: &v1.FunctionCall{Name: "f",
			Args: &structpb.Struct{Fields: map[string]*structpb.Value{"a": v}}}}}}
	}
	tests := []struct {
		name  string
		check func() error
		field string // empty when the value passes
	}{
		{"event at the cap", func() error { return CheckDepth("event", event(nested(63)), 64) }, ""},
		{"event over the cap", func() error { return CheckDepth("event", event(nested(64)), 64) },
			"event.actions.state_delta.s.k.k"},
		{"lists count too", func() error { return CheckDepth("", event(nestedList(64)), 64) },
			"actions.state_delta.s[0][0]"},
		{"function call args", func() error { return CheckDepth("new_message", call(nested(64)), 64) },
			"new_message.parts[1].function_call.args.a.k"},
		{"a value alone", func() error { return CheckValueDepth("response", nested(64), 64) }, ""},
		{"a value alone over the cap", func() error { return CheckValueDepth("response", nested(65), 64) }, "response.k"},
		{"default cap", func() error { return CheckValueDepth("v", nested(DefaultMaxDepth+1), 0) }, "v.k"},
		{"nil", func() error { return CheckDepth("x", nil, 1) }, ""},
		{"very deep", func() error { return CheckValueDepth("v", nested(20000), 64) }, "v.k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.check()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				return
			}
			var de *DepthError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a DepthError", err)
			}
			if !strings.HasPrefix(de.Field, tt.field) {
				t.Errorf("field = %q, want it to start with %q", de.Field, tt.field)
			}
			if len(de.Field) > 210 {
				t.Errorf("field path is %d bytes long", len(de.Field))
			}
		})
	}
}

func BenchmarkCheckDepthRunRequestSized(b *testing.B) {
	ev := &v1.Event{Content: &v1.Content{Parts: []*v1.Part{{Text: "hello"}}},
		Actions: &v1.EventActions{StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{
			"a": nested(3), "b": structpb.NewStringValue("x"), "c": nestedList(2)}}}}
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckDepth("event", ev, 64); err != nil {
			b.Fatal(err)
		}
	}
}

// reflectDepth is CheckDepth without the typed walks.
func reflectDepth(prefix string, m proto.Message, maxDepth int) error {
	w := walker{max: maxDepth, reflectOnly: true}
	if !w.message(m.ProtoReflect(), 0, 0) {
		return nil
	}
	return &DepthError{Field: w.path(prefix), Max: maxDepth}
}

// benchEvent is an event of a typical run: a user message and a small
// state delta.
func benchEvent() *v1.Event {
	return &v1.Event{Content: &v1.Content{Parts: []*v1.Part{{Text: "hello"}}},
		Actions: &v1.EventActions{StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{
			"a": nested(3), "b": structpb.NewStringValue("x"), "c": nestedList(2)}}}}
}

func BenchmarkCheckDepthEventReflect(b *testing.B) {
	ev := benchEvent()
	b.ReportAllocs()
	for b.Loop() {
		if err := reflectDepth("event", ev, 64); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckDepthModelCall(b *testing.B) {
	resp := benchModelCall()
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckDepth("llm_response", resp, 64); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckDepthModelCallReflect(b *testing.B) {
	resp := benchModelCall()
	b.ReportAllocs()
	for b.Loop() {
		if err := reflectDepth("llm_response", resp, 64); err != nil {
			b.Fatal(err)
		}
	}
}

// benchModelCall is a model's function call with two arguments.
func benchModelCall() *v1.LlmResponse {
	return &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{
		Name: "get_weather", Args: &structpb.Struct{Fields: map[string]*structpb.Value{
			"city": structpb.NewStringValue("Paris"), "days": structpb.NewNumberValue(3)}}}}}},
		UsageMetadata: &v1.UsageMetadata{TotalTokenCount: 10}}
}
