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

// isolate returns the events an isolated context sees.
func (ictx *InvocationContext) isolate(events []*v1.Event) []*v1.Event {
	if !ictx.isolated {
		return events
	}
	out := make([]*v1.Event, 0, len(events))
	for _, ev := range events {
		if ev.GetIsolationScope() == ictx.scope {
			out = append(out, ev)
		}
	}
	return out
}
