package runtime

import (
	"context"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// CallbackKind is when a callback runs: ADK's eight callback kinds.
type CallbackKind int

// The callback kinds, in the order of the API's CallbackKind.
const (
	CallbackBeforeAgent CallbackKind = iota + 1
	CallbackAfterAgent
	CallbackBeforeModel
	CallbackAfterModel
	CallbackOnModelError
	CallbackBeforeTool
	CallbackAfterTool
	CallbackOnToolError
)

// String returns the Agent Config field's stem, e.g. "before_model".
func (k CallbackKind) String() string {
	switch k {
	case CallbackBeforeAgent:
		return "before_agent"
	case CallbackAfterAgent:
		return "after_agent"
	case CallbackBeforeModel:
		return "before_model"
	case CallbackAfterModel:
		return "after_model"
	case CallbackOnModelError:
		return "on_model_error"
	case CallbackBeforeTool:
		return "before_tool"
	case CallbackAfterTool:
		return "after_tool"
	case CallbackOnToolError:
		return "on_tool_error"
	}
	return "unknown"
}

// ClientCallbacks reaches the callbacks that live in the client running the
// invocation. The service provides it on Connect; it is nil otherwise. It
// must be safe for concurrent use: the tool callbacks of parallel calls run
// at once.
type ClientCallbacks interface {
	// CallCallback sends call to the client and returns its result. It
	// returns ctx's error once ctx ends without a result.
	CallCallback(ctx context.Context, call *CallbackCall) (*CallbackResult, error)
}

// CallbackCall is one run of a client callback, as sent to the client.
type CallbackCall struct {
	// Name is the name the client declared.
	Name         string
	Kind         CallbackKind
	InvocationID string
	AgentName    string
	// State is the session state the callback may read, with the step's
	// pending changes.
	State       *structpb.Struct
	LlmRequest  *v1.LlmRequest
	LlmResponse *v1.LlmResponse
	// ToolCall is the function call of a tool kind.
	ToolCall     *v1.FunctionCall
	ToolResponse *structpb.Struct
	// Error is the failure of an on_*_error kind.
	Error string
}

// CallbackResult is the client's answer. At most one override is set; none
// means the callback returned nothing.
type CallbackResult struct {
	StateDelta   *structpb.Struct
	Content      *v1.Content
	LlmResponse  *v1.LlmResponse
	LlmRequest   *v1.LlmRequest
	ToolResponse *structpb.Struct
	// Artifacts are files the callback saves, by name.
	Artifacts map[string]*v1.Part
	// Error is the callback's failure in the client.
	Error string
}

// GetContent returns the content override; nil for a nil result.
func (r *CallbackResult) GetContent() *v1.Content {
	if r == nil {
		return nil
	}
	return r.Content
}

// GetLlmResponse returns the response override; nil for a nil result.
func (r *CallbackResult) GetLlmResponse() *v1.LlmResponse {
	if r == nil {
		return nil
	}
	return r.LlmResponse
}

// GetToolResponse returns the tool-result override; nil for a nil result.
func (r *CallbackResult) GetToolResponse() *structpb.Struct {
	if r == nil {
		return nil
	}
	return r.ToolResponse
}
