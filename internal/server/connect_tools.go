package server

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// clientTools is the client's side of one Connect invocation: the tools it
// declared, reached by the engine as [runtime.ClientTools], and the calls
// waiting for its results, as the [tools.ClientChannel] of those tools. It
// is safe for concurrent use by the parallel calls of a model turn and the
// stream's receiver.
type clientTools struct {
	tools []runtime.Tool
	send  func(*api.ConnectResponse) error
	log   *slog.Logger

	// callbacks are the names of the callbacks the client declared.
	callbacks map[string]bool
	// runsCode is set when the client runs the code of ClientCodeExecutors.
	runsCode bool
	// nodes are the workflow function nodes the client runs, by name;
	// eventNodes those whose calls carry the session's events.
	nodes, eventNodes map[string]bool
	// timeout bounds each callback call (tool calls bound their own).
	timeout time.Duration

	mu      sync.Mutex
	pending map[string]*waiter // by call id
	// children are the dynamic nodes of the running node calls, by call id.
	children map[string]*nodeChildren
	// inputClosed is closed when the client can send no more results.
	inputClosed chan struct{}
	closed      bool
}

// newClientTools validates the client's declarations against the app's
// remote tools and returns its side of the invocation. Every declared tool
// must be named, once, and be a remote tool of some agent of the app.
func newClientTools(app *api.App, decls []*api.ToolDeclaration, send func(*api.ConnectResponse) error,
	timeout time.Duration, log *slog.Logger) (*clientTools, error) {
	c := &clientTools{
		send:        send,
		log:         log,
		pending:     map[string]*waiter{},
		inputClosed: make(chan struct{}),
		timeout:     timeout,
	}
	if len(decls) == 0 {
		return c, nil
	}
	remote := declarableTools(app.GetRootAgent(), map[string]*api.ToolInfo{})
	seen := make(map[string]bool, len(decls))
	for i, d := range decls {
		name := d.GetName()
		switch {
		case name == "":
			return nil, invalid(fmt.Sprintf("start.tools[%d].name is required", i))
		case seen[name]:
			return nil, invalid(fmt.Sprintf("start.tools[%d]: tool %q is declared twice", i, name))
		case remote[name] == nil:
			return nil, invalid(fmt.Sprintf("start.tools[%d]: no agent of app %q names the tool %q in its tools", i, app.GetName(), name))
		}
		seen[name] = true
		decl := declaration(d)
		// An Agent Config's LongRunningFunctionTool makes the tool
		// long-running whatever the client says.
		decl.LongRunning = decl.LongRunning || remote[name].GetLongRunning()
		t, err := tools.NewClientTool(tools.ClientToolConfig{Declaration: decl, Channel: c, Timeout: timeout})
		if err != nil {
			return nil, invalid(fmt.Sprintf("start.tools[%d]: %v", i, err))
		}
		c.tools = append(c.tools, t)
	}
	return c, nil
}

// declarableTools adds the remote tools of agent and its sub-agents to set, by
// name; a long-running entry wins.
func declarableTools(agent *api.AgentInfo, set map[string]*api.ToolInfo) map[string]*api.ToolInfo {
	for _, t := range agent.GetTools() {
		if t.GetRemote() && (set[t.GetName()] == nil || t.GetLongRunning()) {
			set[t.GetName()] = t
		}
		if t.GetAgent() != nil {
			declarableTools(t.GetAgent(), set)
		}
	}
	for _, sub := range agent.GetSubAgents() {
		declarableTools(sub, set)
	}
	return set
}

// Tools implements [runtime.ClientTools].
func (c *clientTools) Tools() []runtime.Tool { return c.tools }

// declaration is the engine's view of a client's tool declaration.
func declaration(d *api.ToolDeclaration) tools.ClientDeclaration {
	return tools.ClientDeclaration{Name: d.GetName(), Description: d.GetDescription(), Parameters: d.GetParameters(),
		Response: d.GetResponse(), LongRunning: d.GetLongRunning(), RequireConfirmation: d.GetRequireConfirmation()}
}

// CallTool implements [tools.ClientChannel] with a tool_call message and
// the client's tool_result.
func (c *clientTools) CallTool(ctx context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
	res, err := c.callTool(ctx, &api.ToolCall{CallId: call.CallID, InvocationId: call.InvocationID,
		AgentName: call.AgentName, FunctionCall: call.FunctionCall, State: call.State,
		Confirmation: call.Confirmation, AuthResponse: call.AuthResponse})
	if err != nil {
		return nil, err
	}
	return &tools.ClientResult{Response: res.GetResponse(), Error: res.GetError(), Actions: res.GetActions(),
		Artifacts: res.GetArtifacts()}, nil
}

// waitKind is the kind of answer a call waits for.
type waitKind int

const (
	waitTool     waitKind = iota // a tool_result
	waitCallback                 // a callback_result
	waitCode                     // a code_result
	waitNode                     // a node_result
)

// answerKind is the kind of a client's answer.
func answerKind(msg *api.ConnectRequest) waitKind {
	switch {
	case msg.GetCallbackResult() != nil:
		return waitCallback
	case msg.GetCodeResult() != nil:
		return waitCode
	case msg.GetNodeResult() != nil:
		return waitNode
	}
	return waitTool
}

// waiter is a call waiting for the client's answer: a tool_result, a
// callback_result or a code_result with its call id.
type waiter struct {
	kind waitKind
	ch   chan *api.ConnectRequest // buffered: one answer
}

// callTool sends a tool_call and waits for the tool_result of the same call
// id, ctx, or the end of the client's input (which fails the call: no
// result can come any more).
func (c *clientTools) callTool(ctx context.Context, call *api.ToolCall) (*api.ToolResult, error) {
	msg := &api.ConnectResponse{Kind: &api.ConnectResponse_ToolCall{ToolCall: call}}
	res, err := c.await(ctx, call.CallId, waitTool, msg, func() error { return inputClosedError(call) })
	return res.GetToolResult(), err
}

// await sends msg and waits for the answer with call id id, ctx, or the
// end of the client's input (then closedErr).
func (c *clientTools) await(ctx context.Context, id string, kind waitKind, msg *api.ConnectResponse,
	closedErr func() error) (*api.ConnectRequest, error) {
	w := &waiter{kind: kind, ch: make(chan *api.ConnectRequest, 1)}
	c.mu.Lock()
	switch {
	case c.closed:
		c.mu.Unlock()
		return nil, closedErr()
	case c.pending[id] != nil:
		c.mu.Unlock()
		return nil, &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_DUPLICATE_TOOL_CALL_ID.String(),
			Message: fmt.Sprintf("two calls of the invocation have the id %q", id)}
	}
	c.pending[id] = w
	c.mu.Unlock()
	defer c.forget(id, w)

	if err := c.send(msg); err != nil {
		return nil, fmt.Errorf("server: send call %s: %w", id, err)
	}
	select {
	case res := <-w.ch:
		return res, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.inputClosed:
		select {
		case res := <-w.ch: // it came just before the end of input
			return res, nil
		default:
			return nil, closedErr()
		}
	}
}

// forget removes a call that stopped waiting, unless an answer took it.
func (c *clientTools) forget(id string, w *waiter) {
	c.mu.Lock()
	if c.pending[id] == w {
		delete(c.pending, id)
	}
	c.mu.Unlock()
}

// deliver hands an answer (a tool_result, callback_result or code_result) to the call
// waiting for it. An answer for no waiting call of its kind (an unknown id,
// a second answer, or one that arrives after the call timed out) is logged
// and ignored: the client cannot tell a late answer from a wrong one, and
// neither should end the invocation.
func (c *clientTools) deliver(ctx context.Context, id string, msg *api.ConnectRequest) {
	kind := answerKind(msg)
	c.mu.Lock()
	w := c.pending[id]
	if w != nil && w.kind == kind {
		delete(c.pending, id)
	} else {
		w = nil
	}
	c.mu.Unlock()
	if w == nil {
		c.log.InfoContext(ctx, "result ignored: no call is waiting for it", "call_id", id, "kind", int(kind))
		return
	}
	w.ch <- msg // buffered, and the id is removed: one send at most
}

// closeInput records that the client will send nothing more: waiting and
// later calls fail.
func (c *clientTools) closeInput() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.closed = true
		close(c.inputClosed)
	}
}

// inputClosedError fails a call that the client can no longer answer.
func inputClosedError(call *api.ToolCall) error {
	return &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_TOOL_RESULT_MISSING.String(),
		Message: fmt.Sprintf("the client closed its side of the stream without answering tool call %s (%s)",
			call.GetCallId(), call.GetFunctionCall().GetName())}
}
