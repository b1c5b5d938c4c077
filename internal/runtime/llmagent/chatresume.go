package llmagent

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// replayDelegationTurn runs, before a chat agent asks the model again, the
// calls of its last turn that were never run: the workflow ends the
// agent's run at a turn that delegates a task, so the turn's other calls
// run when the agent runs again, after the task's answer (ADK 2.x's
// REPLAY_CALLS resume). It returns their response event, or nil.
func (a *Agent) replayDelegationTurn(ictx *runtime.InvocationContext) (*v1.Event, error) {
	if !a.delegates() {
		return nil, nil
	}
	events := ictx.Events()
	last := -1
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		if ev.GetInvocationId() != ictx.InvocationID {
			break
		}
		if ev.GetAuthor() == a.cfg.Name && ev.GetBranch() == ictx.Branch && len(runtime.FunctionCalls(ev)) > 0 {
			last = i
			break
		}
	}
	if last < 0 {
		return nil, nil
	}
	answered := map[string]bool{}
	for _, ev := range events[last+1:] {
		for _, fr := range runtime.FunctionResponses(ev) {
			answered[fr.GetId()] = true
		}
	}
	var calls []*v1.FunctionCall
	for _, fc := range runtime.FunctionCalls(events[last]) {
		if _, isTask := a.IsDelegation(fc); !isTask && !answered[fc.GetId()] && !isLongRunningCall(events[last], fc) {
			calls = append(calls, fc)
		}
	}
	if len(calls) == 0 {
		return nil, nil
	}
	r := &request{}
	if err := a.resolveTools(ictx, r); err != nil {
		return nil, err
	}
	return a.runCallList(ictx, calls, r.stepTools(), resumeWith{})
}

// delegates reports whether the agent has task-mode sub-agents.
func (a *Agent) delegates() bool {
	for _, s := range a.cfg.SubAgents {
		if isTaskAgentMode(s) {
			return true
		}
	}
	return false
}

func isTaskAgentMode(ag runtime.Agent) bool {
	s, ok := ag.(*Agent)
	return ok && s.cfg.Mode == ModeTask
}

func isLongRunningCall(ev *v1.Event, fc *v1.FunctionCall) bool {
	for _, id := range ev.GetLongRunningToolIds() {
		if id == fc.GetId() {
			return true
		}
	}
	return false
}
