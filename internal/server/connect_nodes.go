package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// Bounds of a client's node result.
const (
	maxRequestInputs    = 32
	maxInterruptIDBytes = 128
	maxNodeTextBytes    = 64 << 10
	maxRouteValues      = 64
	maxErrorTypeBytes   = 128
)

// functionNodes lists the function nodes of the workflows in agent's tree,
// as "workflow/node" by function name.
func functionNodes(agent runtime.Agent, set map[string]string) map[string]string {
	if g := runtime.Describe(agent).Graph; g != nil {
		for _, n := range g.Nodes {
			if n.Kind == runtime.NodeFunction {
				if _, seen := set[n.Function]; !seen {
					set[n.Function] = agent.Name() + "/" + n.Name
				}
			}
		}
	}
	for _, sub := range agent.SubAgents() {
		functionNodes(sub, set)
	}
	return set
}

// declareNodes records the function nodes the client runs: each must be
// a function node of the app's workflows, declared once.
func (c *clientTools) declareNodes(app *App, decls []*api.NodeDeclaration) error {
	if len(decls) == 0 {
		return nil
	}
	known := functionNodes(app.Runner.App.Tree.Root(), map[string]string{})
	c.nodes, c.eventNodes = make(map[string]bool, len(decls)), map[string]bool{}
	for i, d := range decls {
		name := d.GetName()
		switch {
		case name == "":
			return invalid(fmt.Sprintf("start.nodes[%d].name is required", i))
		case len(name) > maxNodeNameBytes || !utf8.ValidString(name):
			return invalid(fmt.Sprintf("start.nodes[%d].name: at most %d bytes of UTF-8", i, maxNodeNameBytes))
		case c.nodes[name]:
			return invalid(fmt.Sprintf("start.nodes[%d]: node function %q is declared twice", i, name))
		case known[name] == "" && !d.GetDynamic():
			return invalid(fmt.Sprintf("start.nodes[%d]: no workflow of app %q has a node with function %q "+
				"(declare it dynamic if it runs only through run_node)", i, app.Info.GetName(), name))
		}
		c.nodes[name] = true
		if d.GetSessionEvents() {
			c.eventNodes[name] = true
		}
	}
	return nil
}

// requireNodes fails, before anything is stored, an invocation of an app
// with function nodes its client did not declare (any such app, on a run
// without a client).
func requireNodes(app *App, client *clientTools) error {
	known := functionNodes(app.Runner.App.Tree.Root(), map[string]string{})
	names := make([]string, 0, len(known))
	for name := range known {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if client != nil && client.nodes[name] {
			continue
		}
		where := "run app " + app.Info.GetName() + " over Connect and declare it in start.nodes"
		if client != nil {
			where = "the client did not declare it in start.nodes"
		}
		return statusError(codes.FailedPrecondition, v1.ErrorReason_NODE_NOT_DECLARED.String(),
			fmt.Sprintf("workflow node %s runs the function %q, which lives in a client: %s", known[name], name, where))
	}
	return nil
}

// errNodeTimeout is the cause of a node call whose timeout elapsed.
var errNodeTimeout = errors.New("server: node call timed out")

// RunNode implements [graph.Runner] with a node_call message and the
// client's node_result, waiting at most the tool timeout.
func (c *clientTools) RunNode(ctx context.Context, call *graph.Call) (*graph.Result, error) {
	if c == nil || !c.nodes[call.Function] {
		return nil, graph.ErrNoNodeRunner(call.Workflow, call.Node)
	}
	msg := &api.NodeCall{CallId: "node-" + runtime.NewEventID(), Name: call.Function, InvocationId: call.InvocationID,
		Workflow: call.Workflow, NodeName: call.Node, NodePath: call.Path, NodeInput: call.Input, State: call.State,
		Attempt: int32(call.Attempt), ResumeInputs: call.ResumeInputs, SessionId: call.SessionID, UserId: call.UserID,
		SessionEvents: c.callEvents(call)}
	parent := ctx
	ctx, cancel := context.WithTimeoutCause(parent, c.timeout, errNodeTimeout)
	defer cancel()
	defer c.openChildren(ctx, msg.CallId, call)()
	answer, err := c.await(ctx, msg.CallId, waitNode, &api.ConnectResponse{Kind: &api.ConnectResponse_NodeCall{NodeCall: msg}},
		func() error {
			return &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_NODE_RESULT_MISSING.String(),
				Message: fmt.Sprintf("the client closed its side of the stream without answering node call %s", msg.CallId)}
		})
	if err != nil {
		if parent.Err() == nil && errors.Is(context.Cause(ctx), errNodeTimeout) {
			return nil, &runtime.Error{Code: runtime.CodeDeadlineExceeded, Reason: v1.ErrorReason_NODE_TIMEOUT.String(),
				Message: fmt.Sprintf("workflow node %s did not finish within %s", call.Path, c.timeout), Err: err}
		}
		return nil, err
	}
	res := answer.GetNodeResult()
	if e := res.GetError(); e != nil {
		return nil, &graph.NodeError{Type: e.GetType(), Message: e.GetMessage(), StateDelta: res.GetStateDelta()}
	}
	out := &graph.Result{Output: res.GetOutput(), StateDelta: res.GetStateDelta(), Route: res.GetRoute()}
	for _, ri := range res.GetRequestInputs() {
		out.RequestInputs = append(out.RequestInputs, &graph.RequestInput{InterruptID: ri.GetInterruptId(),
			Message: ri.GetMessage(), Payload: ri.GetPayload(), ResponseSchema: ri.GetResponseSchema()})
	}
	return out, nil
}

// checkNodeResult checks a Connect client's node result before it reaches
// the engine; a result out of bounds fails the invocation.
func (s *Server) checkNodeResult(ctx context.Context, r *api.NodeResult) error {
	if err := limits.CheckDepth("node_result", r, s.maxDepth); err != nil {
		return invalid(err.Error())
	}
	if err := graph.CheckRoute(r.GetRoute(), maxRouteValues, maxInterruptIDBytes); err != nil {
		return invalid("node_result.route: " + err.Error())
	}
	if len(r.GetRequestInputs()) > maxRequestInputs {
		return invalid(fmt.Sprintf("node_result.request_inputs: at most %d", maxRequestInputs))
	}
	for i, ri := range r.GetRequestInputs() {
		id := ri.GetInterruptId()
		if len(id) > maxInterruptIDBytes || !utf8.ValidString(id) {
			return invalid(fmt.Sprintf("node_result.request_inputs[%d].interrupt_id: at most %d bytes of UTF-8", i, maxInterruptIDBytes))
		}
		if len(ri.GetMessage()) > maxNodeTextBytes {
			return invalid(fmt.Sprintf("node_result.request_inputs[%d].message: at most %d bytes", i, maxNodeTextBytes))
		}
	}
	if e := r.GetError(); e != nil {
		if e.GetType() == "" || len(e.GetType()) > maxErrorTypeBytes {
			return invalid(fmt.Sprintf("node_result.error.type: required, at most %d bytes", maxErrorTypeBytes))
		}
		if len(e.GetMessage()) > maxNodeTextBytes {
			return invalid(fmt.Sprintf("node_result.error.message: at most %d bytes", maxNodeTextBytes))
		}
	}
	return s.authorizeState(ctx, "node_result.state_delta", r.GetStateDelta())
}
