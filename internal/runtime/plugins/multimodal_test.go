package plugins_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/plugins"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// The contents of the second model request of MultimodalToolResultsPlugin
// runs, probed from google-adk 1.39.1 with a scripted model (model_dump in
// JSON mode): the model called snap(q="cat"), which returned an image and
// a caption; one(q="dog"), which returned one Part; or plain(q="dog"),
// which returned a list of dicts.
const (
	adkSnapRequest  = `[{"parts": [{"text": "go"}], "role": "user"}, {"parts": [{"function_call": {"id": "c1", "args": {"q": "cat"}, "name": "snap"}}], "role": "model"}, {"parts": [{"function_response": {"id": "c1", "name": "snap", "response": {"result": [{"inline_data": {"data": "UE5H", "mime_type": "image/png"}}, {"text": "caption cat"}]}}}, {"inline_data": {"data": "UE5H", "mime_type": "image/png"}}, {"text": "caption cat"}], "role": "user"}]`
	adkOneRequest   = `[{"parts": [{"text": "go"}], "role": "user"}, {"parts": [{"function_call": {"id": "c1", "args": {"q": "dog"}, "name": "one"}}], "role": "model"}, {"parts": [{"function_response": {"id": "c1", "name": "one", "response": {"result": {"text": "single dog"}}}}, {"text": "single dog"}], "role": "user"}]`
	adkPlainRequest = `[{"parts": [{"text": "go"}], "role": "user"}, {"parts": [{"function_call": {"id": "c1", "args": {"q": "dog"}, "name": "plain"}}], "role": "model"}, {"parts": [{"function_response": {"id": "c1", "name": "plain", "response": {"result": [{"text": "not a part"}]}}}], "role": "user"}]`
	// adkSnapThenPlainRequest is the third request after snap, then plain:
	// the parts went with the second request only.
	adkSnapThenPlainRequest = `[{"parts": [{"text": "go"}], "role": "user"}, {"parts": [{"function_call": {"id": "c1", "args": {"q": "cat"}, "name": "snap"}}], "role": "model"}, {"parts": [{"function_response": {"id": "c1", "name": "snap", "response": {"result": [{"inline_data": {"data": "UE5H", "mime_type": "image/png"}}, {"text": "caption cat"}]}}}], "role": "user"}, {"parts": [{"function_call": {"id": "c2", "args": {"q": "x"}, "name": "plain"}}], "role": "model"}, {"parts": [{"function_response": {"id": "c2", "name": "plain", "response": {"result": [{"text": "not a part"}]}}}], "role": "user"}]`
)

// multimodalTools are the probe's tools: snap returns two Parts, one a
// Part, plain a list of dicts, and clientSnap the JSON a client tool
// would send for snap's Parts.
func multimodalTools(t *testing.T) []runtime.Tool {
	t.Helper()
	q := func(args *structpb.Struct) string { return args.GetFields()["q"].GetStringValue() }
	var out []runtime.Tool
	for name, run := range map[string]func(*runtime.ToolContext, *structpb.Struct) (any, error){
		"snap": func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
			return []*v1.Part{{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte("PNG")}}, {Text: "caption " + q(args)}}, nil
		},
		"one": func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
			return &v1.Part{Text: "single " + q(args)}, nil
		},
		"plain": func(*runtime.ToolContext, *structpb.Struct) (any, error) {
			return []any{map[string]any{"text": "not a part"}}, nil
		},
	} {
		tool, err := tools.NewFunction(tools.FunctionConfig{Name: name, Description: name, Run: run})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tool)
	}
	client, err := tools.NewClientTool(tools.ClientToolConfig{Declaration: tools.ClientDeclaration{Name: "clientSnap"},
		Channel: channelFunc(func(_ context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
			v, err := structpb.NewValue([]any{
				map[string]any{"inlineData": map[string]any{"mimeType": "image/png", "data": "UE5H"}},
				map[string]any{"text": "caption " + call.FunctionCall.Args.GetFields()["q"].GetStringValue()},
			})
			return &tools.ClientResult{Response: v}, err
		})})
	if err != nil {
		t.Fatal(err)
	}
	return append(out, client)
}

type channelFunc func(context.Context, *tools.ClientCall) (*tools.ClientResult, error)

func (f channelFunc) CallTool(ctx context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
	return f(ctx, call)
}

func call(id, name, q string) *v1.FunctionCall {
	return &v1.FunctionCall{Id: id, Name: name, Args: et.Struct(`{"q": "` + q + `"}`)}
}

func TestMultimodalToolResults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		plugin  bool
		script  []*v1.LlmResponse
		request int
		want    string
	}{
		{"parts", true, []*v1.LlmResponse{et.Calls(call("c1", "snap", "cat")), et.Text("seen")}, 1, adkSnapRequest},
		{"one part", true, []*v1.LlmResponse{et.Calls(call("c1", "one", "dog")), et.Text("seen")}, 1, adkOneRequest},
		{"not parts", true, []*v1.LlmResponse{et.Calls(call("c1", "plain", "dog")), et.Text("seen")}, 1, adkPlainRequest},
		{"sent once", true, []*v1.LlmResponse{et.Calls(call("c1", "snap", "cat")), et.Calls(call("c2", "plain", "x")), et.Text("seen")},
			2, adkSnapThenPlainRequest},
		// Without the plugin the Parts stay in the function response only.
		{"without the plugin", false, []*v1.LlmResponse{et.Calls(call("c1", "snap", "cat")), et.Text("seen")}, 1,
			`[{"parts": [{"text": "go"}], "role": "user"}, {"parts": [{"function_call": {"id": "c1", "args": {"q": "cat"}, "name": "snap"}}], "role": "model"}, {"parts": [{"function_response": {"id": "c1", "name": "snap", "response": {"result": [{"inline_data": {"data": "UE5H", "mime_type": "image/png"}}, {"text": "caption cat"}]}}}], "role": "user"}]`},
		// A client tool's JSON list of Part objects: the function response
		// keeps the client's JSON, the request carries the Parts.
		{"client parts", true, []*v1.LlmResponse{et.Calls(call("c1", "clientSnap", "cat")), et.Text("seen")}, 1,
			`[{"parts": [{"text": "go"}], "role": "user"}, {"parts": [{"function_call": {"id": "c1", "args": {"q": "cat"}, "name": "clientSnap"}}], "role": "model"}, {"parts": [{"function_response": {"id": "c1", "name": "clientSnap", "response": {"result": [{"inlineData": {"data": "UE5H", "mimeType": "image/png"}}, {"text": "caption cat"}]}}}, {"inline_data": {"data": "UE5H", "mime_type": "image/png"}}, {"text": "caption cat"}], "role": "user"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var ps []*runtime.Plugin
			if tt.plugin {
				p, err := plugins.New("MultimodalToolResultsPlugin", nil)
				if err != nil {
					t.Fatal(err)
				}
				ps = append(ps, p)
			}
			h, m, sid := pluginHarness(t, llmagent.Config{Tools: multimodalTools(t)}, tt.script, ps...)
			h.RunText(t, sid, "go")
			if d := cmp.Diff(probed(t, tt.want, ""), contentsJSON(t, m.Requests()[tt.request].Contents)); d != "" {
				t.Errorf("request %d contents (-adk +got):\n%s", tt.request, d)
			}
			// The waiting parts are "temp:" state: never stored.
			if _, ok := h.Session(t, sid).GetState().GetFields()["temp:PARTS_RETURNED_BY_TOOLS_ID"]; ok {
				t.Error("the parts' state was stored")
			}
		})
	}
}

// TestMultimodalToolResultsParallel checks that the Parts of parallel
// calls all reach the next request, after both function responses. ADK
// 1.39.1 fails that invocation instead: merging the calls' state turns its
// Parts into dicts, on which its model-call tracing raises AttributeError.
func TestMultimodalToolResultsParallel(t *testing.T) {
	t.Parallel()
	h, m, sid := harness(t, "MultimodalToolResultsPlugin", nil, llmagent.Config{Tools: multimodalTools(t)},
		et.Calls(call("c1", "snap", "a"), call("c2", "one", "b")), et.Text("seen"))
	h.RunText(t, sid, "go")
	last := m.Requests()[1].Contents[2]
	got := et.Contents([]*v1.Content{{Role: last.Role, Parts: last.Parts[2:]}})
	// The image shows as "user: " (PartString renders no inline data).
	want := []string{"user: ", "user: caption a", "user: single b"}
	if d := cmp.Diff(want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); d != "" {
		t.Errorf("added parts (-want +got):\n%s", d)
	}
	if last.Parts[0].GetFunctionResponse() == nil || last.Parts[1].GetFunctionResponse() == nil {
		t.Errorf("last content = %v, want the two responses first", last)
	}
}

// TestMultimodalToolResultsEndsAfterToolCallbacks checks that, as in ADK,
// the plugin hands any result but Parts back, so that the after-tool
// callbacks after it (plugins', then the agent's) do not run; after Parts,
// or a tool that returned nothing, they do.
func TestMultimodalToolResultsEndsAfterToolCallbacks(t *testing.T) {
	t.Parallel()
	multimodal, err := plugins.New("MultimodalToolResultsPlugin", nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	next := &runtime.Plugin{Name: "next", AfterTool: func(_ *runtime.ToolContext, tool runtime.Tool, _, _ *structpb.Struct) (*structpb.Struct, error) {
		seen = append(seen, "plugin "+tool.Name())
		return nil, nil
	}}
	nothing, err := tools.NewFunction(tools.FunctionConfig{Name: "nothing", Description: "Returns nothing.",
		Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	cfg := llmagent.Config{Tools: append(multimodalTools(t), nothing), ToolCallbacks: runtime.ToolCallbacks{After: []runtime.AfterToolCallback{
		func(_ *runtime.ToolContext, tool runtime.Tool, _, _ *structpb.Struct) (*structpb.Struct, error) {
			seen = append(seen, "agent "+tool.Name())
			return nil, nil
		}}}}
	h, _, sid := pluginHarness(t, cfg, []*v1.LlmResponse{et.Calls(call("c1", "snap", "a")), et.Calls(call("c2", "plain", "b")),
		et.Calls(call("c3", "nothing", "c")), et.Text("done")}, multimodal, next)
	events := h.RunText(t, sid, "go")
	if d := cmp.Diff([]string{"plugin snap", "agent snap", "plugin nothing", "agent nothing"}, seen); d != "" {
		t.Errorf("after-tool callbacks run (-want +got):\n%s", d)
	}
	if got := et.Events(events)[3]; got != `root_agent: response plain{"result":[{"text":"not a part"}]} #c2` {
		t.Errorf("plain's response = %s, want its result unchanged", got)
	}
}
