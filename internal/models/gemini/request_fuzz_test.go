package gemini

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// FuzzConvertRequest converts fuzzed requests to the SDK's types, for
// either backend: their
// contents, tools and schemas come from sessions, tool results and the
// declarations of Connect clients. Invariants: no panic; the request is
// left unchanged.
func FuzzConvertRequest(f *testing.F) {
	schema, _ := structpb.NewStruct(map[string]any{
		"type": "object", "required": []any{"a"}, "propertyOrdering": []any{"a", "b"},
		"properties": map[string]any{
			"a": map[string]any{"type": []any{"string", "null"}, "enum": []any{"x", "y"}, "format": "enum"},
			"b": map[string]any{"anyOf": []any{map[string]any{"type": "integer", "minimum": 1}, map[string]any{"$ref": "#/d"}}},
			"c": map[string]any{"type": "array", "items": map[string]any{"type": "number"}, "maxItems": 3},
		},
		"$defs": map[string]any{"d": map[string]any{"type": "boolean"}},
	})
	withSchema := benchRequest(f, 1)
	withSchema.Config.ResponseSchema = schema
	withSchema.Config.ResponseMimeType = "application/json"
	withSchema.Config.Tools = append(withSchema.Config.Tools, &v1.Tool{FunctionDeclarations: []*v1.FunctionDeclaration{
		{Name: "client_tool", Parameters: schema, Response: schema}}})
	for _, req := range []*v1.LlmRequest{
		benchRequest(f, 1), benchRequest(f, 3), withSchema,
		{Contents: []*v1.Content{{Role: "model", Parts: []*v1.Part{{Thought: true, Text: "t", ThoughtSignature: []byte("s")}}}}},
		{Contents: []*v1.Content{{Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: "adk-1", Name: "f"}}}}}},
		{},
	} {
		b, err := proto.Marshal(req)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
		f.Add(b, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, vertex bool) {
		req := &v1.LlmRequest{}
		if proto.Unmarshal(data, req) != nil {
			return
		}
		before := proto.Clone(req)
		rc := requestConverter{vertex: vertex}
		_ = rc.contents(req)
		_, _ = rc.config(req.GetConfig())
		if !proto.Equal(before, req) {
			t.Fatalf("converting changed the request:\n%v\nwas\n%v", req, before)
		}
	})
}
