package graph

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"
)

// Bounds of the dynamic nodes (ADK's ctx.run_node) of one workflow run.
const (
	// MaxDynamicDepth bounds how deep dynamic nodes nest: a child that
	// runs a child counts one more.
	MaxDynamicDepth = 16
	// MaxDynamicRuns bounds the dynamic node runs of one workflow run.
	MaxDynamicRuns = 1024
)

// ChildRequest asks, from a running function node, for a run of another
// node as its dynamic child (ADK's ctx.run_node). Exactly one of Function
// and Node is set.
type ChildRequest struct {
	// Function names a function of the client's, which runs as a function
	// node of that name.
	Function string
	// Node names a node of the calling node's workflow, which runs alone
	// (its edges are not followed).
	Node  string
	Input *structpb.Value // nil: none
	// RunID is the child's run id in its path; empty takes the next
	// number of the name under the calling node.
	RunID string
	// UseAsOutput makes the child's output the calling node's output.
	UseAsOutput bool
}

// ChildResult is a dynamic child's outcome.
type ChildResult struct {
	Path   string
	Output *structpb.Value // nil: none
}

// ChildError is a dynamic child's failure as the calling node sees it: the
// exception raised in it (Type and Message), and the child's own error
// (Cause) when the child ran and failed.
type ChildError struct {
	Type, Message string
	Cause         *NodeError
	// Path is the child's path when it ran.
	Path string
}

func (e *ChildError) Error() string { return e.Type + ": " + e.Message }

// dynamicParent is what a dynamic child needs of the node run that asks
// for it.
type dynamicParent struct {
	node  *Node
	path  string
	depth int
	t     trigger
}

// childRunner returns the function that runs dynamic children of the
// function node n running at path, for its [Call].
func (r *run) childRunner(n *Node, path string, depth int, t trigger) func(context.Context, *ChildRequest) (*ChildResult, error) {
	p := &dynamicParent{node: n, path: path, depth: depth, t: t}
	return func(ctx context.Context, req *ChildRequest) (*ChildResult, error) {
		return r.runChild(ctx, p, req)
	}
}

// runChild runs one dynamic child of p, as ADK's run_node_internal: the
// child is named after its function or node, numbered under p's path, and
// its events are the workflow's.
func (r *run) runChild(ctx context.Context, p *dynamicParent, req *ChildRequest) (*ChildResult, error) {
	n, err := r.childNode(p, req)
	if err != nil {
		return nil, err
	}
	if !p.node.RerunOnResume {
		return nil, &ChildError{Type: "ValueError", Message: "A node must have rerun_on_resume=True. Reason is that " +
			"dynamically scheduled nodes might be interrupted, and the workflow wakes-up/re-runs the parent node, so " +
			"it can get the child node response."}
	}
	if req.RunID != "" && isDigits(req.RunID) {
		return nil, &ChildError{Type: "ValueError", Message: fmt.Sprintf("Explicit run_id %q for node %q must contain "+
			"non-numeric characters to prevent collision with auto-generated IDs.", req.RunID, n.Name)}
	}
	if _, _, paused := r.dyn.pausedCaller(p.path); paused {
		return nil, childPaused(p.path) // ADK's caller ended already
	}
	path, err := r.dyn.admit(p, n.Name, req.RunID, req.UseAsOutput)
	if err != nil {
		return nil, err
	}
	outFor := []string{path}
	if req.UseAsOutput {
		outFor = append(outFor, r.outputFor(p.node, p.path)...)
	}
	r.dyn.outputFor.Store(path, outFor)
	t := trigger{node: n.Name, in: input{value: req.Input}, branch: p.t.branch, path: path,
		ictx: p.t.ictx.WithContext(ctx), depth: p.depth + 1}
	if rec, ok := r.dyn.record(path); ok {
		if res, err, done := r.replayChild(p, req, path, rec); done {
			return res, err
		}
		t.resume = answerStruct(&waiting{Answers: rec.Answers})
	}
	o := r.runNode(n, path, t)
	if len(o.interrupts) > 0 && o.err == nil {
		return nil, r.pauseChild(p, n, req, path, o)
	}
	if o.err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		cause := &NodeError{Type: "Exception", Message: o.err.Error()}
		if ne := (*NodeError)(nil); errors.As(o.err, &ne) {
			cause = ne
		}
		return nil, &ChildError{Type: "DynamicNodeFailError", Message: "Dynamic node " + n.Name + " failed", Cause: cause, Path: path}
	}
	// A child's events stream as it ends: its caller's own wait for the
	// caller's place in the rounds.
	for _, ev := range o.events {
		if !r.emit(ev) {
			return nil, context.Canceled
		}
	}
	if req.UseAsOutput {
		r.dyn.delegated.Store(p.path, true)
	}
	r.dyn.keep(path, &childRecord{Done: true, Output: o.output})
	return &ChildResult{Path: path, Output: o.output}, nil
}

// childNode finds or makes the node a request runs.
func (r *run) childNode(p *dynamicParent, req *ChildRequest) (*Node, error) {
	switch {
	case (req.Function == "") == (req.Node == ""):
		return nil, &ChildError{Type: "ValueError", Message: "run_node needs exactly one of a function and a node"}
	case req.Function != "":
		// A function the client declared for dynamic runs may itself run
		// children, so it runs as a node with rerun_on_resume.
		return &Node{Name: req.Function, Kind: Function, Function: req.Function, RerunOnResume: true}, nil
	}
	n := r.w.g.nodes[req.Node]
	switch {
	case n == nil:
		return nil, &ChildError{Type: "ValueError", Message: fmt.Sprintf("workflow %s has no node %q", r.w.cfg.Name, req.Node)}
	case n.Kind == Join || n.Kind == TaskNode:
		return nil, &ChildError{Type: "ValueError", Message: fmt.Sprintf("node %q of workflow %s cannot run as a dynamic node", req.Node, r.w.cfg.Name)}
	}
	return n, nil
}

// isDigits reports a non-empty string of ASCII digits.
func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// dynamicRuns tracks the dynamic children of one workflow run; safe for
// concurrent use by the children of concurrent nodes.
type dynamicRuns struct {
	mu       sync.Mutex
	runs     int
	counters map[string]int  // by parent path + "/" + name
	claimed  map[string]bool // parent paths with a use_as_output child
	// records holds what each child did, by path: a caller run again on
	// resume replays them; paused holds, by caller path, the questions its
	// paused children wait on.
	records, paused map[string]*childRecord
	// outputFor holds the paths each child's output event stands for, by
	// the child's path; delegated the parent paths whose use_as_output
	// child finished.
	outputFor, delegated sync.Map
}

// admit counts a new child of p named name within the bounds and returns
// its path.
func (d *dynamicRuns) admit(p *dynamicParent, name, runID string, useAsOutput bool) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	key, auto := p.path+"/"+name, runID == ""
	if auto {
		runID = strconv.Itoa(d.counters[key] + 1) // counted once admitted
	}
	path := key + "@" + runID
	_, known := d.records[path]
	switch {
	case p.depth >= MaxDynamicDepth:
		return "", &ChildError{Type: "RecursionError", Message: fmt.Sprintf("dynamic nodes nest at most %d deep", MaxDynamicDepth)}
	case d.runs >= MaxDynamicRuns || !known && len(d.records) >= MaxDynamicRuns:
		// The records count those a paused workflow kept too.
		return "", &ChildError{Type: "RuntimeError", Message: fmt.Sprintf("a workflow runs at most %d dynamic nodes", MaxDynamicRuns)}
	case useAsOutput && d.claimed[p.path]:
		return "", &ChildError{Type: "ValueError", Message: fmt.Sprintf("Node %s already has a use_as_output delegate.", p.path)}
	}
	if d.counters == nil {
		d.counters, d.claimed = map[string]int{}, map[string]bool{}
	}
	d.runs++
	if useAsOutput {
		d.claimed[p.path] = true
	}
	if auto {
		d.counters[key]++
	}
	return path, nil
}

// release forgets the use_as_output child of the node run at path, before
// an attempt of it.
func (d *dynamicRuns) release(path string) {
	d.mu.Lock()
	delete(d.claimed, path)
	d.mu.Unlock()
	d.delegated.Delete(path)
}
