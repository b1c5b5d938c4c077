package runtime

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// RootRunner is implemented by a root agent that runs every invocation
// itself, whatever agent wrote the last event: ADK 2.x's Workflow, which
// resumes its nodes on its own.
type RootRunner interface {
	RunsEveryInvocation() bool
}

// NodePath returns the ADK 2.x node path of the running agent; empty when
// the app gives events no node paths.
func (ictx *InvocationContext) NodePath() string { return ictx.nodePath }

// NodeRun returns the run number the next run of agent gets under the
// context's node path, counting it, as [RunAgent] would; for workflow
// nodes that are not agents.
func (ictx *InvocationContext) NodeRun(name string) int {
	return ictx.inv.nodes.next(ictx.nodePath + "/" + name)
}

// WithNodeInput returns a child context in which ev, a user event that is
// never stored, follows the events stored so far: an ADK 2.x single-turn
// LlmAgent node's input, which its model request sees as the latest user
// turn.
func (ictx *InvocationContext) WithNodeInput(ev *v1.Event) *InvocationContext {
	c := *ictx
	c.nodeInput = ev
	ictx.inv.mu.RLock()
	c.nodeInputAt = len(ictx.inv.session.Events)
	ictx.inv.mu.RUnlock()
	return &c
}

// WithNodeInputAt is [InvocationContext.WithNodeInput] with ev seen after
// the first at stored events: the input of a run that goes on, placed
// before what the run wrote.
func (ictx *InvocationContext) WithNodeInputAt(ev *v1.Event, at int) *InvocationContext {
	c := *ictx
	c.nodeInput, c.nodeInputAt = ev, at
	return &c
}

// withNodeInput returns events with the context's node input in place.
func (ictx *InvocationContext) withNodeInput(events []*v1.Event) []*v1.Event {
	if ictx.nodeInput == nil || ictx.nodeInputAt > len(events) {
		return events
	}
	out := make([]*v1.Event, 0, len(events)+1)
	out = append(out, events[:ictx.nodeInputAt]...)
	out = append(out, ictx.nodeInput)
	return append(out, events[ictx.nodeInputAt:]...)
}

// SeedNodeRun makes the next run of the node name under the context's node
// path number n+1: a resumed workflow goes on counting where it stopped.
func (ictx *InvocationContext) SeedNodeRun(name string, n int) {
	ictx.inv.nodes.seed(ictx.nodePath+"/"+name, n)
}
