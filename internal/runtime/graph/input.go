package graph

import (
	"encoding/json"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// contentValue is a content as the JSON value a function node receives,
// as ADK dumps a Content by alias; nil for none.
func contentValue(c *v1.Content) *structpb.Value {
	if c == nil {
		return nil
	}
	b, err := protojson.Marshal(c)
	if err != nil {
		return nil
	}
	var v structpb.Value
	if err := protojson.Unmarshal(b, &v); err != nil {
		return nil
	}
	return &v
}

// inputContent is a node input as the user content an LlmAgent node sees,
// ADK's _node_input_to_content: the user's content as it is, a string as
// text, anything else as Python's json.dumps of it.
func inputContent(in input) *v1.Content {
	if in.content != nil {
		return &v1.Content{Role: "user", Parts: in.content.GetParts()}
	}
	if in.value == nil {
		return nil
	}
	text := ""
	if s, ok := in.value.GetKind().(*structpb.Value_StringValue); ok {
		text = s.StringValue
	} else {
		text = pyfmt.JSONDumps(in.value)
	}
	return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}
}

// toValue converts what a tool returned into a node output.
func toValue(v any) (*structpb.Value, error) {
	if v == nil {
		return nil, nil
	}
	return runtime.OutputValue(v)
}

// parseJSON parses an LlmAgent node's answer against its output schema
// into its output; an answer that is not JSON is its text.
func parseJSON(text string) *structpb.Value {
	var raw any
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return structpb.NewStringValue(text)
	}
	v, err := structpb.NewValue(raw)
	if err != nil {
		return structpb.NewStringValue(text)
	}
	return v
}
