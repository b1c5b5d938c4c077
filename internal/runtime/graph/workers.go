package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// itemRunner runs one item of a parallel worker at its path and returns
// its output.
type itemRunner func(ictx *runtime.InvocationContext, path string, item *structpb.Value) (*structpb.Value, error)

// runWorkers runs a parallel-worker node, as ADK's _ParallelWorker: one
// run of the node (runItem) per item of the input, each at
// "<path>/<node>@<n>" on a branch of its own, at most MaxParallelWorkers
// at once, each retried by the node's policy; the node's output is the
// items' outputs in input order. The first item that fails for good fails
// the node, and the items still running are cancelled.
func (r *run) runWorkers(n *Node, path string, t trigger, runItem itemRunner) outcome {
	items := workerItems(t.in)
	ctx, cancel := context.WithCancel(t.ictx.Context())
	defer cancel()
	limit := n.MaxParallelWorkers
	if limit <= 0 || limit > len(items) {
		limit = len(items)
	}
	slots := make(chan struct{}, max(limit, 1))
	outputs := make([]*structpb.Value, len(items))
	var mu sync.Mutex
	var failed error // the first item that failed for good
	var wg sync.WaitGroup
	for i, item := range items {
		slots <- struct{}{}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			run := n.Name + "@" + strconv.Itoa(i+1)
			ictx := t.ictx.WithBranch(subBranch(t.ictx.Branch, run)).WithContext(ctx)
			out, err := runItem(ictx, path+"/"+run, item)
			mu.Lock()
			defer mu.Unlock()
			outputs[i] = out
			if err != nil && failed == nil {
				failed = err
				cancel()
			}
		}()
	}
	wg.Wait()
	if failed != nil {
		return outcome{err: failed}
	}
	list := make([]*structpb.Value, len(outputs))
	for i, o := range outputs {
		if o == nil {
			o = structpb.NewNullValue()
		}
		list[i] = o
	}
	return r.finish(t.ictx, n, path, &Result{Output: structpb.NewListValue(&structpb.ListValue{Values: list})})
}

// functionItems runs the items of a parallel-worker function node.
func (r *run) functionItems(runner Runner, n *Node) itemRunner {
	return func(ictx *runtime.InvocationContext, path string, item *structpb.Value) (*structpb.Value, error) {
		return r.runWorker(ictx, runner, n, path, item)
	}
}

// agentItems runs the items of a parallel-worker agent node: the agent
// once per item, the item its input, its output the item's own.
func (r *run) agentItems(n *Node) itemRunner {
	return func(ictx *runtime.InvocationContext, path string, item *structpb.Value) (*structpb.Value, error) {
		o := r.retried(n, path, trigger{node: n.Name, in: input{value: item}, branch: ictx.Branch, ictx: ictx, item: true}, r.runAgent)
		if o.err == nil && len(o.interrupts) > 0 {
			o.err = errItemAsked(r.w.cfg.Name, n.Name)
		}
		return o.output, o.err
	}
}

// errItemAsked is the error of a parallel worker's item that asked the
// user, which the node cannot resume.
func errItemAsked(workflow, node string) error {
	return &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_NODE_FAILED.String(),
		Message: fmt.Sprintf("workflow %s: node %s: an item of a parallel worker cannot ask the user", workflow, node)}
}

// runWorker runs one item of a parallel-worker function node and emits
// its output and state changes at its own path.
func (r *run) runWorker(ictx *runtime.InvocationContext, runner Runner, n *Node, path string, item *structpb.Value) (*structpb.Value, error) {
	var res *Result
	err := r.attempts(ictx, n, path, func(ctx context.Context, attempt int) error {
		var err error
		res, err = runner.RunNode(ctx, &Call{Function: n.Function, Workflow: r.w.cfg.Name, Node: n.Name, Path: path,
			InvocationID: r.ictx.InvocationID, Input: item, State: r.ictx.StateSnapshot(), Attempt: attempt})
		return err
	})
	if err != nil {
		return nil, r.nodeFailed(n, err)
	}
	if len(res.RequestInputs) > 0 {
		return nil, errItemAsked(r.w.cfg.Name, n.Name)
	}
	delta := res.StateDelta
	if len(delta.GetFields()) == 0 {
		delta = nil
	}
	if res.Output != nil || delta != nil {
		ev := event(ictx, path)
		ev.Actions.StateDelta = delta
		if res.Output != nil {
			ev.Output, ev.NodeInfo.OutputFor = res.Output, []string{path}
		}
		if !r.emit(ev) {
			return nil, context.Canceled
		}
	}
	return res.Output, nil
}

// workerItems is a parallel worker's input as its items: a list's items,
// the user's message as its text parsed as JSON when it is JSON (a list
// fans out), anything else one item.
func workerItems(in input) []*structpb.Value {
	v := in.value
	if in.content != nil {
		text := llmagent.AnswerText(in.content)
		v = structpb.NewStringValue(text)
		var raw any
		if json.Unmarshal([]byte(text), &raw) == nil {
			if pv, err := structpb.NewValue(raw); err == nil {
				v = pv
			}
		}
	}
	if l := v.GetListValue(); l != nil {
		return l.GetValues()
	}
	if v == nil {
		v = structpb.NewNullValue()
	}
	return []*structpb.Value{v}
}
