package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unicode/utf8"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// Bounds of a client's run_node request and of what a node call carries.
const (
	maxRunNodeIDBytes   = 128
	maxNodeNameBytes    = 256
	maxRunNodeRequests  = 256 // per node call
	maxNodeCallEvents   = 100
	dynamicFailedType   = "DynamicNodeFailError"
	runNodeRefusedType  = "RuntimeError"
	runNodeCancelledMsg = "the calling node ended before its dynamic node finished"
)

// nodeChildren are the dynamic children of one running node call: the
// engine's runner for them, and the requests seen so far.
type nodeChildren struct {
	run    func(context.Context, *graph.ChildRequest) (*graph.ChildResult, error)
	ctx    context.Context //nolint:containedctx // the node call's, under which its children run; cancel ends them with it.
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu   sync.Mutex
	seen map[string]bool // request ids
}

// openChildren records that the node call id runs and may ask for dynamic
// children; the returned function ends the children still running and
// waits for them.
func (c *clientTools) openChildren(ctx context.Context, id string, call *graph.Call) func() {
	if call.RunChild == nil {
		return func() {}
	}
	ch := &nodeChildren{run: call.RunChild, seen: map[string]bool{}}
	ch.ctx, ch.cancel = context.WithCancel(ctx)
	c.mu.Lock()
	if c.children == nil {
		c.children = map[string]*nodeChildren{}
	}
	c.children[id] = ch
	c.mu.Unlock()
	return func() {
		c.mu.Lock()
		delete(c.children, id)
		c.mu.Unlock()
		ch.cancel()
		ch.wg.Wait()
	}
}

// runNode starts the dynamic child a client's run_node request asks for;
// its run_node_result goes back when it finished. A request of no running
// call, or one repeated, is answered at once with an error.
func (c *clientTools) runNode(ctx context.Context, req *api.RunNodeRequest) {
	c.mu.Lock()
	ch := c.children[req.GetCallId()]
	c.mu.Unlock()
	refuse := func(msg string) {
		c.answerRunNode(ctx, req, nil, &api.NodeError{Type: runNodeRefusedType, Message: msg}, nil)
	}
	if ch == nil {
		refuse(fmt.Sprintf("no node call %s is running", req.GetCallId()))
		return
	}
	ch.mu.Lock()
	dup, full := ch.seen[req.GetRequestId()], len(ch.seen) >= maxRunNodeRequests
	if !dup && !full {
		ch.seen[req.GetRequestId()] = true
		ch.wg.Add(1)
	}
	ch.mu.Unlock()
	switch {
	case dup:
		refuse(fmt.Sprintf("node call %s already sent request %s", req.GetCallId(), req.GetRequestId()))
		return
	case full:
		refuse(fmt.Sprintf("a node call runs at most %d dynamic nodes", maxRunNodeRequests))
		return
	}
	go func() {
		defer ch.wg.Done()
		res, err := ch.run(ch.ctx, &graph.ChildRequest{Function: req.GetFunction(), Node: req.GetNode(),
			Input: req.GetNodeInput(), RunID: req.GetRunId(), UseAsOutput: req.GetUseAsOutput()})
		if err == nil {
			c.answerRunNode(ctx, req, res, nil, nil)
			return
		}
		ce := (*graph.ChildError)(nil)
		if !errors.As(err, &ce) {
			// The calling node ended (or the invocation did): nobody waits.
			c.log.DebugContext(ctx, "dynamic node ended", "call_id", req.GetCallId(), "error", err)
			refuse(runNodeCancelledMsg)
			return
		}
		var cause *api.NodeError
		if ce.Cause != nil {
			cause = &api.NodeError{Type: ce.Cause.Type, Message: ce.Cause.Message}
		}
		c.answerRunNode(ctx, req, &graph.ChildResult{Path: ce.Path}, &api.NodeError{Type: ce.Type, Message: ce.Message}, cause)
	}()
}

// answerRunNode sends the run_node_result of req.
func (c *clientTools) answerRunNode(ctx context.Context, req *api.RunNodeRequest, res *graph.ChildResult, e, cause *api.NodeError) {
	msg := &api.RunNodeResponse{CallId: req.GetCallId(), RequestId: req.GetRequestId(), Error: e, Cause: cause}
	if res != nil {
		msg.NodePath, msg.Output = res.Path, res.Output
	}
	if err := c.send(&api.ConnectResponse{Kind: &api.ConnectResponse_RunNodeResult{RunNodeResult: msg}}); err != nil {
		c.log.DebugContext(ctx, "run_node_result not sent", "call_id", req.GetCallId(), "error", err)
	}
}

// checkRunNode checks a client's run_node request before the engine sees
// it; one out of bounds fails the invocation, as a result out of bounds
// does.
func (s *Server) checkRunNode(r *api.RunNodeRequest) error {
	if err := limits.CheckDepth("run_node", r, s.maxDepth); err != nil {
		return invalid(err.Error())
	}
	for _, f := range []struct {
		name, value string
		max         int
	}{
		{"call_id", r.GetCallId(), maxRunNodeIDBytes}, {"request_id", r.GetRequestId(), maxRunNodeIDBytes},
		{"run_id", r.GetRunId(), maxRunNodeIDBytes},
		{"function", r.GetFunction(), maxNodeNameBytes}, {"node", r.GetNode(), maxNodeNameBytes},
	} {
		if len(f.value) > f.max || !utf8.ValidString(f.value) {
			return invalid(fmt.Sprintf("run_node.%s: at most %d bytes of UTF-8", f.name, f.max))
		}
	}
	switch {
	case r.GetCallId() == "" || r.GetRequestId() == "":
		return invalid("run_node.call_id and run_node.request_id are required")
	case r.GetFunction() == "" && r.GetNode() == "":
		return invalid("run_node: one of function and node is required")
	}
	return nil
}

// callEvents is what a node call carries of the session's events: the
// most recent ones, for a function declared with session_events.
func (c *clientTools) callEvents(call *graph.Call) []*v1.Event {
	if !c.eventNodes[call.Function] || call.Events == nil {
		return nil
	}
	events := call.Events()
	if len(events) > maxNodeCallEvents {
		events = events[len(events)-maxNodeCallEvents:]
	}
	return events
}
