package runtime

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// WithIsolation returns a child context that sees only the events whose
// isolation scope is scope, and whose events carry it: ADK 2.x's
// isolation_scope, which keeps a delegated task's history (scope = the
// delegating call's id) apart from its coordinator's (scope empty). A
// context that was never isolated sees every event.
func (ictx *InvocationContext) WithIsolation(scope string) *InvocationContext {
	c := *ictx
	c.isolated, c.scope = true, scope
	return &c
}

// IsolationScope returns the context's isolation scope.
func (ictx *InvocationContext) IsolationScope() string { return ictx.scope }

// WithNodePath returns a child context whose next agent run takes path as
// its node path rather than numbering a run of its own: a run that goes
// on under the same path, or one named by ADK 2.x after a call id.
func (ictx *InvocationContext) WithNodePath(path string) *InvocationContext {
	c := *ictx
	c.nextPath = path
	return &c
}

// isolate returns the events an isolated context sees: those of its
// scope, and the user's answers to the calls made in it (the user answers
// a delegated task's question in a message of no scope).
func (ictx *InvocationContext) isolate(events []*v1.Event) []*v1.Event {
	if !ictx.isolated {
		return events
	}
	out := make([]*v1.Event, 0, len(events))
	var callScope map[string]string // call id → scope, once a task asked
	for _, ev := range events {
		scope := ev.GetIsolationScope()
		if scope == "" && callScope != nil && ev.GetAuthor() == "user" {
			if frs := FunctionResponses(ev); len(frs) > 0 {
				scope = callScope[frs[0].GetId()]
			}
		}
		if s := ev.GetIsolationScope(); s != "" && len(ev.GetLongRunningToolIds()) > 0 {
			if callScope == nil {
				callScope = map[string]string{}
			}
			for _, id := range ev.GetLongRunningToolIds() {
				callScope[id] = s
			}
		}
		if scope == ictx.scope {
			out = append(out, ev)
		}
	}
	return out
}
