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
// object the model sees: objects as they are, anything else as
// {"result": value}. It returns nil for a nil result.
func ToolResult(v any) (*structpb.Struct, error) {
	switch r := v.(type) {
	case nil:
		return nil, nil
	case *structpb.Struct:
		return r, nil
	case map[string]any:
		return structpb.NewStruct(r)
	case *structpb.Value:
		if s := r.GetStructValue(); s != nil {
			return s, nil
		}
		return wrapResult(r), nil
	default:
		val, err := structpb.NewValue(v)
		if err != nil {
			return nil, fmt.Errorf("tool result: %w", err)
		}
		if s := val.GetStructValue(); s != nil {
			return s, nil
		}
		return wrapResult(val), nil
	}
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
