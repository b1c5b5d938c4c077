package gemini

import (
	"fmt"
	"reflect"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// benchRequest is a request of typical agent size: a system instruction,
// a few tools and a conversation of turns text and tool calls.
func benchRequest(tb testing.TB, turns int) *v1.LlmRequest {
	tb.Helper()
	params, err := structpb.NewStruct(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"city": map[string]any{"type": "string", "description": "City."},
			"days": map[string]any{"type": "integer", "minimum": 1},
		},
		"required": []any{"city"},
	})
	if err != nil {
		tb.Fatal(err)
	}
	args, _ := structpb.NewStruct(map[string]any{"city": "Paris", "days": 2})
	result, _ := structpb.NewStruct(map[string]any{"result": "sunny"})
	req := &v1.LlmRequest{
		Model: "gemini-2.5-flash",
		Config: &v1.GenerateContentConfig{
			SystemInstruction: "You are a helpful agent.",
			Labels:            map[string]string{"adk_agent_name": "a"},
		},
	}
	decls := make([]*v1.FunctionDeclaration, 4)
	for i := range decls {
		decls[i] = &v1.FunctionDeclaration{Name: fmt.Sprintf("tool_%d", i), Description: "A tool.", Parameters: params}
	}
	req.Config.Tools = []*v1.Tool{{FunctionDeclarations: decls}}
	for i := range turns {
		id := fmt.Sprintf("call-%d", i)
		req.Contents = append(req.Contents,
			&v1.Content{Role: "user", Parts: []*v1.Part{{Text: "What is the weather?"}}},
			&v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: id, Name: "tool_0", Args: args}}}},
			&v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: id, Name: "tool_0", Response: result}}}},
			&v1.Content{Role: "model", Parts: []*v1.Part{{Text: "It is sunny."}}},
		)
	}
	return req
}

func BenchmarkConvertRequest(b *testing.B) {
	for _, turns := range []int{1, 10} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			req := benchRequest(b, turns)
			rc := requestConverter{}
			b.ReportAllocs()
			for b.Loop() {
				contents := rc.contents(req)
				cfg, err := rc.config(req.GetConfig())
				if err != nil || len(contents) == 0 || cfg == nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestContentsDoNotAlias(t *testing.T) {
	t.Parallel()
	req := benchRequest(t, 2)
	rc := requestConverter{}
	contents := rc.contents(req)
	// 8 turns, the last by the model, so a user turn is appended.
	if len(contents) != 9 {
		t.Fatalf("%d contents, want 9", len(contents))
	}
	seen := map[any]bool{}
	for _, c := range contents {
		for _, p := range c.Parts {
			if seen[p] {
				t.Fatalf("part %p shared by two contents", p)
			}
			seen[p] = true
		}
	}
	if got := contents[8].Parts[0].Text; got != continueTurnText || contents[8].Role != roleUser {
		t.Errorf("appended turn %q %q, want the user continue text", contents[8].Role, got)
	}
	if n := len(req.GetContents()); n != 8 {
		t.Errorf("request now has %d contents, want it unchanged (8)", n)
	}
}

func TestAggregatorWithoutChunks(t *testing.T) {
	t.Parallel()
	var a streamAggregator
	if got := a.result(); got != nil {
		t.Errorf("result of an empty stream = %v, want nil (no aggregate, as in ADK)", got)
	}
}

// TestPartMetadataByBackend: a part's metadata goes to the Gemini API, as
// google-genai sends it, and never to Vertex AI, which refuses it.
func TestPartMetadataByBackend(t *testing.T) {
	t.Parallel()
	meta, err := structpb.NewStruct(map[string]any{"is_user_input": true})
	if err != nil {
		t.Fatal(err)
	}
	req := &v1.LlmRequest{Contents: []*v1.Content{{Role: roleUser, Parts: []*v1.Part{{Text: "hi", PartMetadata: meta}}}}}
	for _, tc := range []struct {
		vertex bool
		want   map[string]any
	}{
		{false, map[string]any{"is_user_input": true}},
		{true, nil},
	} {
		got := requestConverter{vertex: tc.vertex}.contents(req)[0].Parts[0].PartMetadata
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("vertex=%v: part metadata %v, want %v", tc.vertex, got, tc.want)
		}
	}
}
