package server

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/clientcb"
)

// declareCallbacks records the client's callback declarations. Each must
// be named, once, and be named by some agent of the app (a Python-style
// path declares its last segment, as the Agent Config binds it).
func (c *clientTools) declareCallbacks(app *api.App, decls []*api.CallbackDeclaration) error {
	if len(decls) == 0 {
		return nil
	}
	used := callbackUses(app.GetRootAgent(), nil)
	c.callbacks = make(map[string]bool, len(decls))
	for i, d := range decls {
		name := clientcb.Name(d.GetName())
		switch {
		case name == "":
			return invalid(fmt.Sprintf("start.callbacks[%d].name is required", i))
		case c.callbacks[name]:
			return invalid(fmt.Sprintf("start.callbacks[%d]: callback %q is declared twice", i, name))
		case !usesCallback(used, name):
			return invalid(fmt.Sprintf("start.callbacks[%d]: no agent of app %q names the callback %q in its *_callbacks", i, app.GetName(), name))
		}
		c.callbacks[name] = true
	}
	return nil
}

// callbackUse is one callback entry of an agent.
type callbackUse struct {
	agent string
	cb    *api.CallbackInfo
}

// callbackUses adds the callback entries of agent and its sub-agents to
// uses, depth first.
func callbackUses(agent *api.AgentInfo, uses []callbackUse) []callbackUse {
	for _, cb := range agent.GetCallbacks() {
		uses = append(uses, callbackUse{agent.GetName(), cb})
	}
	for _, sub := range agent.GetSubAgents() {
		uses = callbackUses(sub, uses)
	}
	for _, t := range agent.GetTools() {
		if t.GetAgent() != nil {
			uses = callbackUses(t.GetAgent(), uses)
		}
	}
	return uses
}

func usesCallback(uses []callbackUse, name string) bool {
	for _, u := range uses {
		if u.cb.GetName() == name {
			return true
		}
	}
	return false
}

// requireCallbacks fails an invocation whose app names a callback the
// client did not declare (any callback, on a run without a client), before
// anything is stored.
func requireCallbacks(app *api.App, client *clientTools) error {
	for _, u := range callbackUses(app.GetRootAgent(), nil) {
		if client == nil {
			return statusError(codes.FailedPrecondition, v1.ErrorReason_CALLBACK_NOT_DECLARED.String(),
				fmt.Sprintf("agent %s names the callback %q (%s), which lives in a client: run app %s over Connect and declare it",
					u.agent, u.cb.GetName(), u.cb.GetField(), app.GetName()))
		}
		if !client.callbacks[u.cb.GetName()] {
			return statusError(codes.FailedPrecondition, v1.ErrorReason_CALLBACK_NOT_DECLARED.String(),
				fmt.Sprintf("agent %s names the callback %q (%s), which the client did not declare in start.callbacks",
					u.agent, u.cb.GetName(), u.cb.GetField()))
		}
	}
	return nil
}

// toolsChannel is the engine's view of the client's tools; nil without a
// client.
func (c *clientTools) toolsChannel() runtime.ClientTools {
	if c == nil {
		return nil
	}
	return c
}

// callbacksChannel is the engine's view of the client's callbacks; nil
// without a client or without callbacks.
func (c *clientTools) callbacksChannel() runtime.ClientCallbacks {
	if c == nil || len(c.callbacks) == 0 {
		return nil
	}
	return c
}

// errCallbackTimeout is the cause of a callback call whose timeout elapsed.
var errCallbackTimeout = errors.New("server: callback call timed out")

// CallCallback implements [runtime.ClientCallbacks] with a callback_call
// message and the client's callback_result, waiting at most the tool
// timeout: a callback that does not answer fails the invocation with
// DEADLINE_EXCEEDED.
func (c *clientTools) CallCallback(ctx context.Context, call *runtime.CallbackCall) (*runtime.CallbackResult, error) {
	msg := &api.CallbackCall{CallId: "callback-" + runtime.NewEventID(), Name: call.Name,
		Kind: api.CallbackKind(call.Kind), InvocationId: call.InvocationID, AgentName: call.AgentName,
		State: call.State, LlmRequest: call.LlmRequest, LlmResponse: call.LlmResponse, ToolCall: call.ToolCall,
		ToolResponse: call.ToolResponse, Error: call.Error}
	parent := ctx
	ctx, cancel := context.WithTimeoutCause(parent, c.timeout, errCallbackTimeout)
	defer cancel()
	answer, err := c.await(ctx, msg.CallId, waitCallback, &api.ConnectResponse{Kind: &api.ConnectResponse_CallbackCall{CallbackCall: msg}},
		func() error {
			return &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_CALLBACK_RESULT_MISSING.String(),
				Message: fmt.Sprintf("the client closed its side of the stream without answering callback call %s (%s)", msg.CallId, call.Name)}
		})
	if err != nil {
		if parent.Err() == nil && errors.Is(context.Cause(ctx), errCallbackTimeout) {
			return nil, &runtime.Error{Code: runtime.CodeDeadlineExceeded, Reason: v1.ErrorReason_CALLBACK_TIMEOUT.String(),
				Message: fmt.Sprintf("the %s callback %s of agent %s did not answer within %s", call.Kind, call.Name, call.AgentName, c.timeout),
				Err:     err}
		}
		return nil, err
	}
	res := answer.GetCallbackResult()
	return &runtime.CallbackResult{StateDelta: res.GetStateDelta(), Content: res.GetContent(),
		LlmResponse: res.GetLlmResponse(), LlmRequest: res.GetLlmRequest(), ToolResponse: res.GetToolResponse(),
		Artifacts: res.GetArtifacts(), Error: res.GetError()}, nil
}

// checkCallbackResult checks a Connect client's callback result before it
// reaches the engine: bounded in depth, its error text clipped, and app
// state in its delta only from an admin.
func (s *Server) checkCallbackResult(ctx context.Context, res *api.CallbackResult) error {
	if err := s.checkDepth("callback_result", res); err != nil {
		return err
	}
	if len(res.GetError()) > maxCallbackErrorBytes {
		return invalid(fmt.Sprintf("callback_result.error: longer than %d bytes", maxCallbackErrorBytes))
	}
	return s.authorizeState(ctx, "callback_result.state_delta", res.GetStateDelta())
}

// maxCallbackErrorBytes bounds the error text of a callback result, which
// becomes the invocation's status message.
const maxCallbackErrorBytes = 4096
