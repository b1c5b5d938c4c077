package graph

import (
	"context"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// agentRun is how one LlmAgent node run presents its events.
type agentRun struct {
	// path is the run's node path; empty takes the one its first run
	// gets, and later runs keep it.
	path string
	// author, when set, replaces the agent's name as its events' author:
	// ADK's @node wrapper authors them as the workflow.
	author string
	// outputFor is the node's outputFor list, from its path.
	outputFor func(path string) []string
	// interrupts are the long-running calls the run paused at, its own or
	// a delegated task's.
	interrupts []string
}

// runTaskNode runs a task node: a task-mode LlmAgent inside a node of the
// node's name, as ADK's run_llm_agent_as_node in a @node function (or,
// as an agent node, the agent placed directly, its events its own). The
// node's input is the agent's first user turn (unless it is the user's
// message, which the agent's history holds already), and the arguments
// of its successful finish_task call are the node's output.
func (r *run) runTaskNode(n *Node, path string, t trigger) outcome {
	la, ok := n.Agent.(*llmagent.Agent)
	if !ok || !la.IsTask() {
		return outcome{err: &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_NOT_A_TASK_AGENT.String(),
			Message: "workflow " + r.w.cfg.Name + ": node " + n.Name + " runs an agent that is not a task-mode LlmAgent"}}
	}
	ictx := t.ictx
	if c := inputContent(t.in); c != nil && t.in.content != r.ictx.UserContent {
		ictx = ictx.WithNodeInput(&v1.Event{Id: runtime.NewEventID(), InvocationId: ictx.InvocationID,
			Author: "user", Branch: ictx.Branch, Timestamp: runtime.Now(), Content: c})
	}
	ar := &agentRun{path: path, outputFor: func(p string) []string { return r.outputFor(n, p) }}
	if n.Kind == TaskNode {
		ar.author = r.w.cfg.Name // the wrapping node's
	}
	out, _, err := r.runLLM(ictx, la, ar)
	if err != nil {
		return outcome{err: err}
	}
	return outcome{path: path, output: out, interrupts: ar.interrupts}
}

// runLLM runs an LlmAgent in task or chat mode, as ADK's node wrapper
// loops: each delegation call to a task-mode sub-agent ends the agent's
// run, the sub-agent runs the task, its result answers the call, and the
// agent runs again; a task-mode agent ends at its successful finish_task
// call, whose arguments are its output (and, with an output key, state).
// It reports the output and whether the task finished.
func (r *run) runLLM(ictx *runtime.InvocationContext, la *llmagent.Agent, ar *agentRun) (*structpb.Value, bool, error) {
	if ar.path != "" && la.IsChat() {
		// A chat agent resumed: the delegations it made and that never
		// finished go on first (ADK's replay of unresolved task calls).
		if done, err := r.delegateAll(ictx, la, ar, unresolvedDelegations(ictx.Events(), la), true); done || err != nil {
			return nil, false, err
		}
	}
	for {
		runCtx := ictx
		if ar.path != "" {
			runCtx = ictx.WithNodePath(ar.path)
		}
		var delegations []*v1.FunctionCall
		var finishArgs *structpb.Struct
		finishing := false
		for ev, err := range runtime.RunAgent(runCtx, la) {
			if err != nil {
				return nil, false, err
			}
			own := ev.GetAuthor() == la.Name()
			if own && ar.path == "" {
				ar.path = ev.GetNodeInfo().GetPath()
			}
			if own && ar.author != "" {
				ev.Author = ar.author
			}
			var calls []*v1.FunctionCall
			var finish *v1.FunctionCall
			if own {
				for _, fc := range runtime.FunctionCalls(ev) {
					if _, ok := la.IsDelegation(fc); ok {
						calls = append(calls, fc)
					} else if fc.GetName() == llmagent.FinishTaskName {
						finish = fc
					}
				}
			}
			if la.IsTask() && finish != nil && len(calls) == 0 {
				finishArgs, finishing = finish.GetArgs(), true
			} else if finishing && llmagent.IsFinishTaskDone(ev) {
				out := la.TaskOutput(finishArgs)
				r.markOutput(ev, la, out, ar)
				if !r.emit(ev) {
					return nil, false, context.Canceled
				}
				return out, true, nil
			}
			if !r.emit(ev) {
				return nil, false, context.Canceled
			}
			ar.interrupts = append(ar.interrupts, ev.GetLongRunningToolIds()...)
			if len(calls) > 0 {
				// ADK ends the run here: the turn's other calls run
				// when the agent runs again.
				delegations = calls
				break
			}
		}
		if len(delegations) == 0 || len(ar.interrupts) > 0 {
			return nil, false, nil // done, or paused for the user
		}
		if done, err := r.delegateAll(ictx, la, ar, delegations, false); done || err != nil {
			return nil, false, err
		}
	}
}

// delegateAll runs the tasks of delegation calls in order, each answered
// by its synthesized response; it reports done when a task paused (its
// questions join the run's) or the run stopped.
func (r *run) delegateAll(ictx *runtime.InvocationContext, la *llmagent.Agent, ar *agentRun, calls []*v1.FunctionCall, resumed bool) (bool, error) {
	for _, fc := range calls {
		out, paused, err := r.delegate(ictx, la, ar.path, fc, resumed)
		if err != nil {
			return true, err
		}
		if len(paused) > 0 {
			ar.interrupts = append(ar.interrupts, paused...)
			return true, nil
		}
		if !r.emit(delegationResult(ictx, ar.path, fc, out)) {
			return true, context.Canceled
		}
	}
	return false, nil
}

// markOutput makes ev, the answer to a successful finish_task call, the
// task's output event.
func (r *run) markOutput(ev *v1.Event, la *llmagent.Agent, out *structpb.Value, ar *agentRun) {
	ev.Output = out
	if ev.NodeInfo == nil {
		ev.NodeInfo = &v1.NodeInfo{}
	}
	ev.NodeInfo.OutputFor = ar.outputFor(ev.NodeInfo.GetPath())
	if key := la.Config().OutputKey; key != "" {
		if ev.Actions == nil {
			ev.Actions = &v1.EventActions{}
		}
		if ev.Actions.StateDelta == nil {
			ev.Actions.StateDelta = &structpb.Struct{Fields: map[string]*structpb.Value{}}
		}
		ev.Actions.StateDelta.Fields[key] = out
	}
}

// delegate runs the task a delegation call hands to a sub-agent, as ADK's
// _dispatch_task_fc: the sub-agent runs at "<caller path>/<agent>@<call
// id>" on branch "<agent>@<call id>", isolated in the call id's scope, its
// first user turn Python's json.dumps of the call's arguments.
// It returns the task's output, or the calls it paused at.
func (r *run) delegate(ictx *runtime.InvocationContext, la *llmagent.Agent, path string, fc *v1.FunctionCall, resumed bool) (*structpb.Value, []string, error) {
	sub, _ := la.IsDelegation(fc)
	run := sub.Name() + "@" + fc.GetId()
	branch := run
	if ictx.Branch != "" {
		branch = ictx.Branch + "." + run
	}
	args := fc.GetArgs()
	if args == nil {
		args = &structpb.Struct{}
	}
	sctx := r.ictx.WithBranch(branch).WithIsolation(fc.GetId())
	first := &v1.Event{Id: runtime.NewEventID(), InvocationId: sctx.InvocationID, Author: "user",
		Branch: branch, Timestamp: runtime.Now(), IsolationScope: fc.GetId(),
		Content: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: pyfmt.JSONDumps(structpb.NewStructValue(args))}}}}
	if resumed {
		// Its scope holds only its own events: its first turn leads them.
		sctx = sctx.WithNodeInputAt(first, 0)
	} else {
		sctx = sctx.WithNodeInput(first)
	}
	sar := &agentRun{path: path + "/" + run, outputFor: func(p string) []string { return []string{p} }}
	out, _, err := r.runLLM(sctx, sub, sar)
	return out, sar.interrupts, err
}

// delegationResult is ADK's synthesized answer to a delegation call: a
// user event at the caller's path whose response is the task's output
// (an object as it is, anything else as {"output": value}).
func delegationResult(ictx *runtime.InvocationContext, path string, fc *v1.FunctionCall, out *structpb.Value) *v1.Event {
	resp := out.GetStructValue()
	if resp == nil {
		if out == nil {
			out = structpb.NewNullValue()
		}
		resp = &structpb.Struct{Fields: map[string]*structpb.Value{"output": out}}
	}
	ev := ictx.NewEvent()
	ev.Author = "user"
	ev.NodeInfo = &v1.NodeInfo{Path: path}
	ev.Content = &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
		Id: fc.GetId(), Name: fc.GetName(), Response: resp}}}}
	return ev
}

// unresolvedDelegations are la's delegation calls in events that no
// response answers, in order.
func unresolvedDelegations(events []*v1.Event, la *llmagent.Agent) []*v1.FunctionCall {
	answered := map[string]bool{}
	for _, ev := range events {
		for _, fr := range runtime.FunctionResponses(ev) {
			answered[fr.GetId()] = true
		}
	}
	var out []*v1.FunctionCall
	for _, ev := range events {
		if ev.GetAuthor() != la.Name() {
			continue
		}
		for _, fc := range runtime.FunctionCalls(ev) {
			if _, ok := la.IsDelegation(fc); ok && !answered[fc.GetId()] {
				out = append(out, fc)
			}
		}
	}
	return out
}
