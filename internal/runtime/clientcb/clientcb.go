// Package clientcb binds an agent's callbacks to callbacks that live in the
// client of the invocation: each run becomes a [runtime.CallbackCall] sent
// through [runtime.ClientCallbacks], and the client's result becomes what
// the callback returns, as an ADK callback written in Python would.
package clientcb

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// Name is the name a client declares for an Agent Config callback entry:
// the last segment of a Python-style path (pkg.module.fn names fn), as
// adk-python names a callback after its function.
func Name(ref string) string {
	return ref[strings.LastIndexByte(ref, '.')+1:]
}

// Callback is one client callback of an agent: its declared name and kind.
// Its methods return the engine's callback of each kind. How long a run
// waits for the client is the client channel's to bound.
type Callback struct {
	Name string
	Kind runtime.CallbackKind
}

// call sends one run to the client and checks the answer's override
// against the kind: what the client may answer with is the kind's.
func (c Callback) call(cctx *runtime.CallbackContext, call *runtime.CallbackCall) (*runtime.CallbackResult, error) {
	client := cctx.ClientCallbacks()
	if client == nil {
		return nil, &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_CALLBACK_NOT_DECLARED.String(),
			Message: fmt.Sprintf("agent %s names the %s callback %q, which lives in a client: run the app over Connect and declare it",
				cctx.Agent.Name(), c.Kind, c.Name)}
	}
	call.Name, call.Kind, call.InvocationID, call.AgentName = c.Name, c.Kind, cctx.InvocationID, cctx.Agent.Name()
	call.State = readableState(cctx)
	res, err := client.CallCallback(cctx.Context(), call)
	if err != nil {
		return nil, fmt.Errorf("clientcb: %s callback %s: %w", c.Kind, c.Name, err)
	}
	if res == nil {
		res = &runtime.CallbackResult{}
	}
	if res.Error != "" {
		return nil, &runtime.Error{Code: runtime.CodeUnknown, Reason: v1.ErrorReason_CALLBACK_FAILED.String(),
			Message: fmt.Sprintf("the %s callback %s of agent %s failed: %s", c.Kind, c.Name, call.AgentName, res.Error)}
	}
	if got := overrideOf(res); got != "" && !allowed(c.Kind, got) {
		return nil, &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_CALLBACK_RESULT_INVALID.String(),
			Message: fmt.Sprintf("the %s callback %s answered with %s; a %s callback may answer with %s",
				c.Kind, c.Name, got, c.Kind, overridesOf(c.Kind))}
	}
	state := cctx.State()
	for k, v := range res.StateDelta.GetFields() {
		state.Set(k, v)
	}
	if err := cctx.SaveArtifacts(cctx.Actions, res.Artifacts); err != nil {
		return nil, fmt.Errorf("clientcb: %s callback %s: save artifact: %w", c.Kind, c.Name, err)
	}
	return res, nil
}

// overrideOf names the override a result carries, or "" for none.
func overrideOf(r *runtime.CallbackResult) string {
	switch {
	case r.Content != nil:
		return "content"
	case r.LlmResponse != nil:
		return "llm_response"
	case r.LlmRequest != nil:
		return "llm_request"
	case r.ToolResponse != nil:
		return "tool_response"
	}
	return ""
}

// overridesOf names the overrides a kind may answer with.
func overridesOf(k runtime.CallbackKind) string {
	switch k {
	case runtime.CallbackBeforeAgent, runtime.CallbackAfterAgent:
		return "content"
	case runtime.CallbackBeforeModel:
		return "llm_response or llm_request"
	case runtime.CallbackAfterModel, runtime.CallbackOnModelError:
		return "llm_response"
	}
	return "tool_response"
}

func allowed(k runtime.CallbackKind, override string) bool {
	switch override {
	case "content":
		return k == runtime.CallbackBeforeAgent || k == runtime.CallbackAfterAgent
	case "llm_response":
		return k == runtime.CallbackBeforeModel || k == runtime.CallbackAfterModel || k == runtime.CallbackOnModelError
	case "llm_request":
		return k == runtime.CallbackBeforeModel
	}
	return k == runtime.CallbackBeforeTool || k == runtime.CallbackAfterTool || k == runtime.CallbackOnToolError
}

// readableState is the session state with the step's pending changes: what
// a callback would read locally.
func readableState(cctx *runtime.CallbackContext) *structpb.Struct {
	state := cctx.StateSnapshot()
	if state.Fields == nil {
		state.Fields = map[string]*structpb.Value{}
	}
	for k, v := range cctx.Actions.GetStateDelta().GetFields() {
		state.Fields[k] = v
	}
	return state
}

// BeforeAgent returns the engine's before_agent callback.
func (c Callback) BeforeAgent() runtime.BeforeAgentCallback {
	return func(cctx *runtime.CallbackContext) (*v1.Content, error) {
		res, err := c.call(cctx, &runtime.CallbackCall{})
		return res.GetContent(), err
	}
}

// AfterAgent returns the engine's after_agent callback.
func (c Callback) AfterAgent() runtime.AfterAgentCallback {
	return func(cctx *runtime.CallbackContext) (*v1.Content, error) {
		res, err := c.call(cctx, &runtime.CallbackCall{})
		return res.GetContent(), err
	}
}

// BeforeModel returns the engine's before_model callback. A request in the
// answer replaces the one about to be sent, in place, as an ADK callback
// edits it.
func (c Callback) BeforeModel() runtime.BeforeModelCallback {
	return func(cctx *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
		res, err := c.call(cctx, &runtime.CallbackCall{LlmRequest: req})
		if err != nil {
			return nil, err
		}
		if res.LlmRequest != nil {
			proto.Reset(req)
			proto.Merge(req, res.LlmRequest)
		}
		return res.LlmResponse, nil
	}
}

// AfterModel returns the engine's after_model callback.
func (c Callback) AfterModel() runtime.AfterModelCallback {
	return func(cctx *runtime.CallbackContext, resp *v1.LlmResponse) (*v1.LlmResponse, error) {
		res, err := c.call(cctx, &runtime.CallbackCall{LlmResponse: resp})
		return res.GetLlmResponse(), err
	}
}

// OnModelError returns the engine's on_model_error callback.
func (c Callback) OnModelError() runtime.OnModelErrorCallback {
	return func(cctx *runtime.CallbackContext, req *v1.LlmRequest, failure error) (*v1.LlmResponse, error) {
		res, err := c.call(cctx, &runtime.CallbackCall{LlmRequest: req, Error: failure.Error()})
		return res.GetLlmResponse(), err
	}
}

// BeforeTool returns the engine's before_tool callback.
func (c Callback) BeforeTool() runtime.BeforeToolCallback {
	return func(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct) (*structpb.Struct, error) {
		res, err := c.call(&tctx.CallbackContext, &runtime.CallbackCall{ToolCall: functionCall(tctx, tool, args)})
		return res.GetToolResponse(), err
	}
}

// AfterTool returns the engine's after_tool callback.
func (c Callback) AfterTool() runtime.AfterToolCallback {
	return func(tctx *runtime.ToolContext, tool runtime.Tool, args, result *structpb.Struct) (*structpb.Struct, error) {
		res, err := c.call(&tctx.CallbackContext, &runtime.CallbackCall{ToolCall: functionCall(tctx, tool, args), ToolResponse: result})
		return res.GetToolResponse(), err
	}
}

// OnToolError returns the engine's on_tool_error callback.
func (c Callback) OnToolError() runtime.OnToolErrorCallback {
	return func(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct, failure error) (*structpb.Struct, error) {
		res, err := c.call(&tctx.CallbackContext, &runtime.CallbackCall{ToolCall: functionCall(tctx, tool, args), Error: failure.Error()})
		return res.GetToolResponse(), err
	}
}

func functionCall(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct) *v1.FunctionCall {
	return &v1.FunctionCall{Id: tctx.FunctionCallID, Name: tool.Name(), Args: args}
}
