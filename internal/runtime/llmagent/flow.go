package llmagent

import (
	"iter"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
)

// step is one turn of the ReAct loop (ADK's _run_one_step_async): build the
// request, call the model, yield its events, run the function calls and, on
// a transfer, the target agent.
func (a *Agent) step(ictx *runtime.InvocationContext, history *contents.Cache) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		if ev, err := a.resume(ictx); err != nil {
			yield(nil, err)
			return
		} else if ev != nil && !yield(ev, nil) {
			return
		}
		r, err := a.buildRequest(ictx, history)
		if err != nil {
			yield(nil, err)
			return
		}
		for _, ev := range r.events {
			if !yield(ev, nil) {
				return
			}
		}
		if ictx.Ended() {
			return
		}
		skeleton := ictx.NewEvent()
		for resp, err := range a.callModel(ictx, r.model, r.llm, skeleton, &r.callCtx) {
			if err != nil {
				if ev := modelErrorEvent(ictx, skeleton, err); ev != nil && !yield(ev, nil) {
					return
				}
				yield(nil, err)
				return
			}
			a.planResponse(ictx, resp)
			for cev, err := range a.codeExecutionResponse(ictx, resp) {
				if !yield(cev, err) || err != nil {
					return
				}
			}
			if resp.Content == nil && resp.ErrorCode == "" && !resp.Interrupted {
				continue
			}
			ev := finalize(skeleton, resp, r.tools)
			// ADK 2.x gives the partial chunks of one response the id of
			// its final event; 1.x gives every event an id of its own.
			if !ev.GetPartial() || ictx.App().Behavior != runtime.Behavior2x {
				skeleton.Id = runtime.NewEventID()
			}
			if !yield(ev, nil) {
				return
			}
			if ev.GetPartial() || len(runtime.FunctionCalls(ev)) == 0 {
				continue
			}
			// The calls of an answer run in the model call's context,
			// inside its call_llm span as in ADK.
			callCtx := ictx
			if r.callCtx != nil {
				callCtx = r.callCtx
			}
			if !a.handleCalls(callCtx, ev, r.stepTools(), yield) {
				return
			}
		}
	}
}

// finalize merges a model response into the step's event skeleton, giving
// function calls without an id an "adk-" id and listing long-running calls.
func finalize(skeleton *v1.Event, resp *v1.LlmResponse, tools map[string]runtime.Tool) *v1.Event {
	ev := &v1.Event{
		Id:           skeleton.Id,
		InvocationId: skeleton.InvocationId,
		Author:       skeleton.Author,
		Branch:       skeleton.Branch,
		Timestamp:    skeleton.Timestamp,
		Actions:      skeleton.Actions,
		NodeInfo:     skeleton.NodeInfo,
		// ADK 2.x scopes a delegated task's events.
		IsolationScope: skeleton.IsolationScope,
	}
	if !isEmptyActions(skeleton.Actions) {
		ev.Actions = proto.CloneOf(skeleton.Actions)
	} else {
		ev.Actions = &v1.EventActions{}
	}
	runtime.EventFromResponse(ev, resp)
	for _, p := range ev.GetContent().GetParts() {
		fc := p.FunctionCall
		if fc == nil {
			continue
		}
		if fc.Id == "" {
			fc.Id = runtime.NewFunctionCallID()
		}
		if t := tools[fc.Name]; t != nil && t.IsLongRunning() {
			ev.LongRunningToolIds = append(ev.LongRunningToolIds, fc.Id)
		}
	}
	return ev
}

func isEmptyActions(a *v1.EventActions) bool {
	return a == nil || proto.Size(a) == 0
}

// handleCalls runs the calls of ev and yields the response event, then the
// transfer target's events. It reports whether iteration should go on.
func (a *Agent) handleCalls(ictx *runtime.InvocationContext, ev *v1.Event, tools stepTools,
	yield func(*v1.Event, error) bool) bool {
	resp, err := a.runCalls(ictx, ev, tools)
	if err != nil {
		yield(nil, err)
		return false
	}
	if resp == nil {
		return true
	}
	if auth := credentialEvent(ictx, ev, resp); auth != nil && !yield(auth, nil) {
		return false
	}
	if confirm := confirmationEvent(ictx, ev, resp); confirm != nil && !yield(confirm, nil) {
		return false
	}
	if !yield(resp, nil) {
		return false
	}
	if final := structuredResponse(ictx, resp); final != nil {
		if !yield(final, nil) {
			return false
		}
	}
	target := resp.GetActions().GetTransferToAgent()
	if target == "" {
		return true
	}
	agent := ictx.App().Tree.Find(target)
	if agent == nil {
		yield(nil, &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: runtime.ErrAgentNotFound.Reason,
			Message: "Agent " + target + " not found in the agent tree."})
		return false
	}
	for tev, err := range runtime.RunAgent(ictx, agent) {
		if !yield(tev, err) || err != nil {
			return false
		}
	}
	return true
}

// resume runs, before the model is asked, the tool calls the client has just
// given a credential for or confirmed (ADK's auth and confirmation
// processors), and returns their response event.
func (a *Agent) resume(ictx *runtime.InvocationContext) (*v1.Event, error) {
	if ev, err := a.replayDelegationTurn(ictx); ev != nil || err != nil {
		return ev, err
	}
	if !a.hasTools() {
		return nil, nil
	}
	events := ictx.Events()
	auth := answersRequest(events, ictx.Branch, credentialCallName)
	if !auth && !answersRequest(events, ictx.Branch, confirmationCallName) {
		return nil, nil
	}
	r := &request{}
	if err := a.resolveTools(ictx, r); err != nil || len(r.tools) == 0 {
		return nil, err
	}
	if auth {
		return a.resumeAuthorized(ictx, r.stepTools())
	}
	return a.resumeConfirmed(ictx, r.stepTools())
}
