package runtime

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/features"
)

// CallbackContext is what a callback sees: the invocation and the actions of
// the event the callback contributes to.
type CallbackContext struct {
	*InvocationContext
	// Actions collects what the callback does (state delta, transfer, ...).
	Actions *v1.EventActions
}

// NewCallbackContext returns a callback context with fresh actions.
func NewCallbackContext(ictx *InvocationContext) *CallbackContext {
	return &CallbackContext{InvocationContext: ictx, Actions: &v1.EventActions{}}
}

// State reads and writes session state through the callback's actions.
func (c *CallbackContext) State() State { return State{ictx: c.InvocationContext, actions: c.Actions} }

// ToolContext is what a tool and the tool callbacks see.
type ToolContext struct {
	CallbackContext
	// FunctionCallID is the id of the call being run.
	FunctionCallID string
	// Confirmation is the user's answer when the call was confirmed.
	Confirmation *v1.ToolConfirmation
	// AuthResponse is the auth config, with the credential the client
	// obtained, when the call runs again after a credential request.
	AuthResponse *structpb.Struct
	// Output is what the tool's Run returned, as it returned it, before
	// it became the function response (ADK's after-tool callbacks receive
	// that value: a list of Parts, a string, ...); a Run that returned
	// nothing leaves a null [structpb.Value]. It is nil when the tool did
	// not run or failed; set before the after-tool callbacks run.
	Output any
}

// Agent callbacks. A non-nil Content ends the agent (before) or adds an
// event (after).
type (
	// BeforeAgentCallback runs before an agent; a non-nil Content skips the
	// agent and becomes its reply.
	BeforeAgentCallback func(cctx *CallbackContext) (*v1.Content, error)
	// AfterAgentCallback runs after an agent; a non-nil Content is yielded
	// as an extra event.
	AfterAgentCallback func(cctx *CallbackContext) (*v1.Content, error)
)

// Model callbacks. A non-nil response replaces the model call, the model's
// response or the error.
type (
	// BeforeModelCallback may answer instead of the model.
	BeforeModelCallback func(cctx *CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error)
	// AfterModelCallback may replace the model's response.
	AfterModelCallback func(cctx *CallbackContext, resp *v1.LlmResponse) (*v1.LlmResponse, error)
	// OnModelErrorCallback may answer instead of a failed model call.
	OnModelErrorCallback func(cctx *CallbackContext, req *v1.LlmRequest, err error) (*v1.LlmResponse, error)
)

// Tool callbacks. A non-nil result replaces the tool run, its result or its
// error.
type (
	// BeforeToolCallback may answer instead of the tool.
	BeforeToolCallback func(tctx *ToolContext, tool Tool, args *structpb.Struct) (*structpb.Struct, error)
	// AfterToolCallback may replace the tool's result.
	AfterToolCallback func(tctx *ToolContext, tool Tool, args, result *structpb.Struct) (*structpb.Struct, error)
	// OnToolErrorCallback may answer instead of a failed tool.
	OnToolErrorCallback func(tctx *ToolContext, tool Tool, args *structpb.Struct, err error) (*structpb.Struct, error)
)

// AgentCallbacks are an agent's before/after callbacks, run in order until
// one returns something.
type AgentCallbacks struct {
	Before []BeforeAgentCallback
	After  []AfterAgentCallback
}

// ModelCallbacks are an LLM agent's model callbacks.
type ModelCallbacks struct {
	Before  []BeforeModelCallback
	After   []AfterModelCallback
	OnError []OnModelErrorCallback
}

// ToolCallbacks are an LLM agent's tool callbacks.
type ToolCallbacks struct {
	Before  []BeforeToolCallback
	After   []AfterToolCallback
	OnError []OnToolErrorCallback
}

// NewToolContext returns the context of one function call, with fresh
// actions.
func NewToolContext(ictx *InvocationContext, callID string) *ToolContext {
	return &ToolContext{
		CallbackContext: CallbackContext{InvocationContext: ictx, Actions: &v1.EventActions{}},
		FunctionCallID:  callID,
	}
}

// RequestConfirmation asks the user to approve this call before it runs
// (ADK's tool_context.request_confirmation): the flow then emits an
// adk_request_confirmation call for the client to answer. With the app's
// TOOL_CONFIRMATION feature off nothing is asked and the error is ADK's
// for a disabled feature, which fails the call as ADK raises it.
func (t *ToolContext) RequestConfirmation(hint string, payload *structpb.Struct) error {
	if !t.App().Features.Enabled(features.ToolConfirmation) {
		return FeatureNotEnabled(features.ToolConfirmation)
	}
	if t.Actions.RequestedToolConfirmations == nil {
		t.Actions.RequestedToolConfirmations = map[string]*v1.ToolConfirmation{}
	}
	t.Actions.RequestedToolConfirmations[t.FunctionCallID] = &v1.ToolConfirmation{Hint: hint, Payload: payload}
	return nil
}

// RequestCredential asks the client for a credential before this call can
// do its work (ADK's tool_context.request_credential): the flow then emits
// an adk_request_credential call carrying authConfig, and runs the call
// again with the client's answer in [ToolContext.AuthResponse].
func (t *ToolContext) RequestCredential(authConfig *structpb.Struct) {
	if t.Actions.RequestedAuthConfigs == nil {
		t.Actions.RequestedAuthConfigs = map[string]*structpb.Struct{}
	}
	t.Actions.RequestedAuthConfigs[t.FunctionCallID] = authConfig
}
