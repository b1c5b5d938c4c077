package plugins

import (
	"errors"
	"sync"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// partsReturnedKey is the state key under which ADK's plugin keeps the
// parts tools returned until the next model call.
const partsReturnedKey = "temp:PARTS_RETURNED_BY_TOOLS_ID"

// newMultimodalToolResults is ADK's MultimodalToolResultsPlugin: a tool may
// return Parts, and the next model request carries them after the last
// content (the function responses), besides the function response
// {"result": [<the parts as JSON>]} the tool's call gets as usual. A Go
// tool returns a *v1.Part or a []*v1.Part; a client tool returns a
// non-empty JSON list whose every element is a Part object (protobuf JSON,
// camelCase or snake_case names, e.g. [{"inlineData": {"mimeType":
// "image/png", "data": "<base64>"}}, {"text": "a caption"}]), since a
// single object is an ordinary result. Any other result passes unchanged,
// and, as ADK's plugin hands it back, ends the after-tool callbacks. The
// parts wait in the invocation's "temp:PARTS_RETURNED_BY_TOOLS_ID" state,
// as in ADK, and do not outlive the invocation. The Parts of parallel
// calls all go, in the order the calls end (ADK 1.39.1 fails that
// invocation).
func newMultimodalToolResults(a *arguments) (*runtime.Plugin, error) {
	name, err := a.string("name", "multimodal_tool_results_plugin")
	if err != nil {
		return nil, err
	}
	p := &multimodal{}
	return &runtime.Plugin{Name: name, AfterTool: p.afterTool, BeforeModel: p.beforeModel}, nil
}

type multimodal struct {
	// mu makes each read and write of the waiting parts one step, so that
	// the parallel calls of one turn all add theirs (in ADK they share the
	// session state as they run).
	mu sync.Mutex
}

// afterTool keeps the Parts a tool returned. Any other result it hands
// back as ADK's plugin does, which ends the after-tool callbacks there:
// later plugins' and the agent's do not run (a tool that returned nothing
// is None there, and lets them run).
func (p *multimodal) afterTool(tctx *runtime.ToolContext, _ runtime.Tool, _, result *structpb.Struct) (*structpb.Struct, error) {
	parts := returnedParts(tctx.Output)
	if len(parts) == 0 {
		if returnedNothing(tctx.Output) {
			return nil, nil
		}
		return result, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	old, _ := tctx.State().Get(partsReturnedKey)
	list := append([]*structpb.Value(nil), old.GetListValue().GetValues()...)
	for _, part := range parts {
		list = append(list, runtime.PartValue(part))
	}
	// ADK writes the state of the invocation as the tool runs; the key is
	// "temp:", so a delta would never be stored either.
	tctx.SetSessionState(partsReturnedKey, structpb.NewListValue(&structpb.ListValue{Values: list}))
	return nil, nil
}

func (p *multimodal) beforeModel(cctx *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	saved, _ := cctx.State().Get(partsReturnedKey)
	if !pyfmt.Truthy(saved) {
		return nil, nil
	}
	if len(req.Contents) == 0 {
		// ADK fails here too (contents[-1] of an empty list).
		return nil, errors.New("no content to add the parts returned by tools to")
	}
	last := req.Contents[len(req.Contents)-1]
	for _, v := range saved.GetListValue().GetValues() {
		if part := partOf(v); part != nil {
			last.Parts = append(last.Parts, part)
		}
	}
	cctx.SetSessionState(partsReturnedKey, structpb.NewListValue(&structpb.ListValue{}))
	return nil, nil
}

// returnedParts returns the Parts a tool returned: a Part, a non-empty list
// of Parts, or a non-empty JSON list of Part objects; nil for any other
// output.
func returnedParts(out any) []*v1.Part {
	switch o := out.(type) {
	case *v1.Part:
		return []*v1.Part{o}
	case []*v1.Part:
		return o
	case *structpb.Value:
		values := o.GetListValue().GetValues()
		if len(values) == 0 {
			return nil
		}
		parts := make([]*v1.Part, len(values))
		for i, v := range values {
			if parts[i] = partOf(v); parts[i] == nil {
				return nil
			}
		}
		return parts
	}
	return nil
}

// returnedNothing reports a tool that ran and returned nothing (None in
// ADK).
func returnedNothing(out any) bool {
	v, ok := out.(*structpb.Value)
	if !ok {
		return false
	}
	_, null := v.GetKind().(*structpb.Value_NullValue)
	return null
}

// partOf reads v as a Part: an object of Part fields only, with at least
// one set; nil otherwise.
func partOf(v *structpb.Value) *v1.Part {
	if v.GetStructValue() == nil {
		return nil
	}
	data, err := protojson.Marshal(v)
	if err != nil {
		return nil
	}
	part := &v1.Part{}
	if protojson.Unmarshal(data, part) != nil || proto.Size(part) == 0 {
		return nil
	}
	return part
}
