package runtime

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TransferPolicy is implemented by LLM agents; agents that do not implement
// it never take a new turn from their parent.
type TransferPolicy interface {
	DisallowTransferToParent() bool
	DisallowTransferToPeers() bool
}

// findCallEvent returns the latest event holding a function call with id.
func findCallEvent(events []*v1.Event, id string) *v1.Event {
	if id == "" {
		return nil
	}
	for i := len(events) - 1; i >= 0; i-- {
		for _, c := range FunctionCalls(events[i]) {
			if c.Id == id {
				return events[i]
			}
		}
	}
	return nil
}

// findAgentToRun picks the agent that answers a new turn (ADK's
// _find_agent_to_run): the caller of a function the user answers; else the
// author of the latest agent event when it may take the turn; else the root.
func (r *Runner) findAgentToRun(ictx *InvocationContext) Agent {
	tree := r.App.Tree
	if rr, ok := tree.Root().(RootRunner); ok && rr.RunsEveryInvocation() {
		return tree.Root()
	}
	events := ictx.inv.session.Events
	if n := len(events); n > 0 {
		if resps := FunctionResponses(events[n-1]); len(resps) > 0 {
			if call := findCallEvent(events[:n-1], resps[0].Id); call != nil {
				if a := tree.Find(call.Author); a != nil {
					return a
				}
			}
		}
	}
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		if ev.Author == "user" || ev.GetActions().GetAgentState() != nil || ev.GetActions().GetEndOfAgent() {
			continue
		}
		if ev.Author == tree.Root().Name() {
			return tree.Root()
		}
		a := tree.Find(ev.Author)
		if a == nil {
			continue
		}
		if transferableAcrossTree(tree, a) {
			return a
		}
	}
	return tree.Root()
}

// transferableAcrossTree reports whether every agent from a up to the root is
// an LLM agent that allows transfer to its parent.
func transferableAcrossTree(tree *Tree, a Agent) bool {
	for a != nil {
		p, ok := a.(TransferPolicy)
		if !ok || p.DisallowTransferToParent() {
			return false
		}
		a = tree.Parent(a.Name())
	}
	return true
}
