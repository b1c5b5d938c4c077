package graph

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/retry"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// RequestInputName is the function call that asks the user for input,
// ADK's REQUEST_INPUT_FUNCTION_CALL_NAME.
const RequestInputName = "adk_request_input"

// runNode runs one triggered node to its outcome.
func (r *run) runNode(n *Node, path string, t trigger) outcome {
	switch n.Kind {
	case Function:
		return r.runFunction(n, path, t)
	case AgentNode:
		if n.ParallelWorker {
			return r.runWorkers(n, path, t, r.agentItems(n))
		}
		return r.retried(n, path, t, r.runAgent)
	case Join:
		ev := event(t.ictx, path)
		ev.Output, ev.NodeInfo.OutputFor = t.in.value, r.outputFor(n, path)
		return outcome{output: t.in.value, events: []*v1.Event{ev}}
	case ToolNode:
		return r.runTool(n, path, t)
	case TaskNode:
		return r.retried(n, path, t, r.runTaskNode)
	}
	return outcome{err: fmt.Errorf("node %s: unknown kind %d", n.Name, n.Kind)}
}

// attempts runs op under the node's retry policy: a [NodeError] is retried
// as the policy says, any other error is not.
func (r *run) attempts(ictx *runtime.InvocationContext, n *Node, path string, op func(ctx context.Context, attempt int) error) error {
	policy := retry.Config{}
	if n.Retry != nil {
		policy = *n.Retry
	}
	env := retry.Env{Sleep: r.w.cfg.Sleep, Uniform: r.w.cfg.Uniform, Classify: func(err error) string {
		if ne := (*NodeError)(nil); errors.As(err, &ne) {
			return ne.Type
		}
		return ""
	}}
	// The node run's own context: a dynamic node's ends with its caller.
	return retry.Do(ictx.Context(), policy, env, func(ctx context.Context, attempt int) error {
		parent := ctx
		if n.Timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(parent, n.Timeout)
			defer cancel()
		}
		err := op(ctx, attempt)
		if err != nil && n.Timeout > 0 && parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = &NodeError{Type: "NodeTimeoutError", Message: fmt.Sprintf("Node '%s' timed out after %s seconds.",
				n.Name, pyfmt.AppendNumber(nil, n.Timeout.Seconds()))}
		}
		r.failedAttempt(ictx, path, err)
		if ne := (*NodeError)(nil); err != nil && !errors.As(err, &ne) {
			return retry.Permanent(err)
		}
		return err
	})
}

// failedAttempt emits, as ADK does for every failed attempt of a node,
// an event with the exception's class and message.
func (r *run) failedAttempt(ictx *runtime.InvocationContext, path string, err error) {
	ne := (*NodeError)(nil)
	if !errors.As(err, &ne) || ne.reported {
		return
	}
	ev := event(ictx, path)
	ev.ErrorCode, ev.ErrorMessage = ne.Type, ne.Message
	if len(ne.StateDelta.GetFields()) > 0 {
		ev.Actions.StateDelta = ne.StateDelta
	}
	r.emit(ev)
}

// nodeFailed is the invocation's error when a node failed for good.
func (r *run) nodeFailed(n *Node, err error) error {
	if ne := (*NodeError)(nil); errors.As(err, &ne) {
		return &runtime.Error{Code: runtime.CodeUnknown, Reason: v1.ErrorReason_NODE_FAILED.String(),
			Message: fmt.Sprintf("workflow %s: node %s failed: %s", r.w.cfg.Name, n.Name, ne.Error()), Err: err}
	}
	return err
}

// runFunction runs a function node in the client, attempt by attempt.
func (r *run) runFunction(n *Node, path string, t trigger) outcome {
	runner, ok := r.ictx.ClientTools().(Runner)
	if !ok || runner == nil {
		return outcome{err: ErrNoNodeRunner(r.w.cfg.Name, n.Name)}
	}
	if n.Auth != nil {
		if _, ok := t.ictx.StateValue("temp:" + CredentialKey(n.Auth)); !ok {
			ev := credentialRequestEvent(t.ictx, path, n.Auth)
			return outcome{interrupts: ev.LongRunningToolIds, events: []*v1.Event{ev}}
		}
	}
	if n.RequireConfirmation {
		if res, ok := r.confirmation(n, path, t); !ok {
			return r.finish(t.ictx, n, path, res)
		}
	}
	if n.ParallelWorker {
		return r.runWorkers(n, path, t, r.functionItems(runner, n))
	}
	var res *Result
	err := r.attempts(t.ictx, n, path, func(ctx context.Context, attempt int) error {
		var err error
		r.dyn.release(path) // a retry may name a use_as_output child again
		r.dyn.clearPaused(path)
		res, err = runner.RunNode(ctx, &Call{Function: n.Function, Workflow: r.w.cfg.Name, Node: n.Name, Path: path,
			InvocationID: r.ictx.InvocationID, Input: t.in.value, State: r.ictx.StateSnapshot(), Attempt: attempt,
			ResumeInputs: t.resume, SessionID: r.ictx.SessionID(), UserID: r.ictx.UserID(), Events: t.ictx.Events,
			RunChild: r.childRunner(n, path, t.depth, t)})
		if _, _, paused := r.dyn.pausedCaller(path); paused && ctx.Err() == nil {
			return nil // what the node did after its child paused does not count
		}
		return err
	})
	if err != nil {
		return outcome{err: r.nodeFailed(n, err)}
	}
	if ids, schemas, paused := r.dyn.pausedCaller(path); paused {
		// A child asked the user: the node waits on its questions, with
		// no event of its own, as ADK's caller of a waiting child.
		return outcome{interrupts: ids, schemas: schemas}
	}
	if _, delegated := r.dyn.delegated.Load(path); !delegated || len(res.RequestInputs) > 0 {
		return r.finish(t.ictx, n, path, res)
	}
	// A use_as_output child's event already stands for this node's
	// output: ADK emits no output event of the node's own, and passes what
	// the node returned to its successors.
	own := *res
	own.Output = nil
	o := r.finish(t.ictx, n, path, &own)
	if o.err == nil {
		o.output = res.Output
	}
	return o
}

// finish returns a node's outcome with the events ADK emits for its
// result, which the loop releases in ADK's order: one event per question
// asked (the first with the state changes), or one event with the output
// and state changes, then one with the route.
func (r *run) finish(ictx *runtime.InvocationContext, n *Node, path string, res *Result) outcome {
	delta := res.StateDelta
	if len(delta.GetFields()) == 0 {
		delta = nil
	}
	if len(res.RequestInputs) > 0 {
		var ids []string
		var asks []*v1.Event
		schemas := map[string]*structpb.Value{}
		for i, ri := range res.RequestInputs {
			ev := requestInputEvent(ictx, path, ri)
			if i == 0 {
				ev.Actions.StateDelta = delta
			}
			ids = append(ids, ev.LongRunningToolIds...)
			if ri.ResponseSchema != nil {
				schemas[ev.LongRunningToolIds[0]] = ri.ResponseSchema
			}
			asks = append(asks, ev)
		}
		return outcome{interrupts: ids, schemas: schemas, events: asks}
	}
	var events []*v1.Event
	if res.Output != nil || delta != nil {
		ev := event(ictx, path)
		ev.Actions.StateDelta = delta
		if res.Output != nil {
			ev.Output, ev.NodeInfo.OutputFor = res.Output, r.outputFor(n, path)
		}
		events = append(events, ev)
	}
	if res.Route != nil {
		// ADK's ctx.route: an event of its own after the output's.
		if len(events) == 0 || events[0].Output != nil {
			events = append(events, event(ictx, path))
		}
		events[len(events)-1].Actions.Route = res.Route
	}
	return outcome{output: res.Output, route: res.Route, events: events}
}

// requestInputEvent is ADK's create_request_input_event: an
// adk_request_input call whose id is the interrupt id, long-running.
func requestInputEvent(ictx *runtime.InvocationContext, path string, ri *RequestInput) *v1.Event {
	id := ri.InterruptID
	if id == "" {
		id = runtime.NewEventID()
	}
	orNull := func(v *structpb.Value) *structpb.Value {
		if v == nil {
			return structpb.NewNullValue()
		}
		return v
	}
	msg := structpb.NewNullValue()
	if ri.Message != "" {
		msg = structpb.NewStringValue(ri.Message)
	}
	args := &structpb.Struct{Fields: map[string]*structpb.Value{
		"interruptId": structpb.NewStringValue(id), "payload": orNull(ri.Payload), "message": msg,
		"response_schema": orNull(ri.ResponseSchema),
	}}
	ev := event(ictx, path)
	ev.Content = &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: id, Name: RequestInputName, Args: args}}}}
	ev.LongRunningToolIds = []string{id}
	return ev
}

// runTool runs a tool node: its input object is the call's arguments and
// the tool's result its output.
func (r *run) runTool(n *Node, path string, t trigger) outcome {
	tool := n.Tool
	if tool == nil {
		if c := r.ictx.ClientTools(); c != nil {
			for _, ct := range c.Tools() {
				if ct.Name() == n.ToolName {
					tool = ct
				}
			}
		}
	}
	if tool == nil {
		return outcome{err: &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_TOOL_NOT_DECLARED.String(),
			Message: fmt.Sprintf("workflow %s: node %s runs the client's tool %s, which the client did not declare", r.w.cfg.Name, n.Name, n.ToolName)}}
	}
	args := t.in.value.GetStructValue()
	if args == nil {
		args = &structpb.Struct{}
	}
	var result any
	var tctx *runtime.ToolContext
	err := r.attempts(t.ictx, n, path, func(ctx context.Context, _ int) error {
		tctx = runtime.NewToolContext(t.ictx.WithContext(ctx), runtime.NewFunctionCallID())
		var err error
		result, err = tool.Run(tctx, args)
		return err
	})
	if err != nil {
		return outcome{err: r.nodeFailed(n, err)}
	}
	out, err := toValue(result)
	if err != nil {
		return outcome{err: fmt.Errorf("workflow %s: node %s: %w", r.w.cfg.Name, n.Name, err)}
	}
	return r.finish(t.ictx, n, path, &Result{Output: out, StateDelta: tctx.Actions.GetStateDelta()})
}

// itemOutputFor is outputFor for a run of t: an item of a parallel
// worker stands for itself only.
func (r *run) itemOutputFor(n *Node, path string, t trigger) []string {
	if t.item {
		return []string{path}
	}
	return r.outputFor(n, path)
}

// outputFor lists the node paths an output event stands for: the node's,
// and the workflow's too when the node is terminal (no edge leaves it); a
// dynamic node's are set when it starts.
func (r *run) outputFor(n *Node, path string) []string {
	if v, ok := r.dyn.outputFor.Load(path); ok {
		return v.([]string)
	}
	if len(r.w.g.out[n.Name]) == 0 && r.ictx.NodePath() != "" {
		return []string{path, r.ictx.NodePath()}
	}
	return []string{path}
}
