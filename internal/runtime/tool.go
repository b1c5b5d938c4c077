package runtime

import (
	"fmt"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Tool is a function the model can call. Built-in tools, Go function tools
// and tools served by a client all implement it.
//
// Implementations are safe for concurrent use: one invocation may run
// several calls of the same tool at once.
type Tool interface {
	// Name is the function name the model calls.
	Name() string
	// Description tells the model what the tool does.
	Description() string
	// Declaration is what the model is told; nil keeps the tool out of the
	// request.
	Declaration() *v1.FunctionDeclaration
	// IsLongRunning reports a tool whose result arrives later: its calls are
	// listed in the event's long_running_tool_ids.
	IsLongRunning() bool
	// Run runs one call. A result that is not an object is wrapped as
	// {"result": value}; nil from a long-running tool means "no result yet".
	Run(tctx *ToolContext, args *structpb.Struct) (any, error)
}

// Toolset provides tools per invocation, e.g. the tools a client declared.
type Toolset interface {
	// Tools returns the toolset's tools for the invocation.
	Tools(ictx *InvocationContext) ([]Tool, error)
}

// ToolResult converts what a tool returned into the function response
// object the model sees: objects as they are, anything else (a Part or a
// list of Parts included, as ADK keeps them) as {"result": value}. It
// returns nil for a nil result.
func ToolResult(v any) (*structpb.Struct, error) {
	switch r := v.(type) {
	case nil:
		return nil, nil
	case *structpb.Struct:
		return r, nil
	case *v1.Part:
		return wrapResult(PartValue(r)), nil
	}
	val, err := OutputValue(v)
	if err != nil {
		return nil, err
	}
	if s := val.GetStructValue(); s != nil {
		return s, nil
	}
	return wrapResult(val), nil
}

// OutputValue returns the JSON value of what a tool's Run returned, before
// [ToolResult] makes it a function response: nil is null, a Part or a list
// of Parts is Part-shaped JSON (see [PartValue]), and anything else is
// converted as [structpb.NewValue] converts it.
func OutputValue(v any) (*structpb.Value, error) {
	switch r := v.(type) {
	case nil:
		return structpb.NewNullValue(), nil
	case *structpb.Value:
		return r, nil
	case *structpb.Struct:
		return structpb.NewStructValue(r), nil
	case *v1.Part:
		return PartValue(r), nil
	case []*v1.Part:
		list := &structpb.ListValue{Values: make([]*structpb.Value, len(r))}
		for i, p := range r {
			list.Values[i] = PartValue(p)
		}
		return structpb.NewListValue(list), nil
	}
	val, err := structpb.NewValue(v)
	if err != nil {
		return nil, fmt.Errorf("tool result: %w", err)
	}
	return val, nil
}

func wrapResult(v *structpb.Value) *structpb.Struct {
	return &structpb.Struct{Fields: map[string]*structpb.Value{"result": v}}
}

// NullResult is {"result": null}, the response of a tool that returned
// nothing.
func NullResult() *structpb.Struct { return wrapResult(structpb.NewNullValue()) }

// RequestProcessor is a tool that changes the model request instead of
// being declared to the model, as Gemini's own tools (Google Search, URL
// context) do: the model runs them itself. The flow calls ProcessRequest
// in the tool's place among the declarations.
type RequestProcessor interface {
	ProcessRequest(ictx *InvocationContext, req *v1.LlmRequest) error
}

// AppendInstruction joins text to the request's system instruction with a
// blank line, as ADK's LlmRequest.append_instructions does.
func AppendInstruction(req *v1.LlmRequest, text string) {
	if req.Config == nil {
		req.Config = &v1.GenerateContentConfig{}
	}
	if req.Config.SystemInstruction == "" {
		req.Config.SystemInstruction = text
		return
	}
	req.Config.SystemInstruction += "\n\n" + text
}
