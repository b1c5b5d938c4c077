package runtime

import (
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// checkpoints are the agent states of a resumable invocation: what each
// workflow agent has done, and which agents have finished. They are rebuilt
// from the invocation's events when it resumes.
type checkpoints struct {
	mu     sync.Mutex
	states map[string]*structpb.Struct
	ended  map[string]bool
}

func newCheckpoints(invocationID string, events []*v1.Event) *checkpoints {
	c := &checkpoints{states: map[string]*structpb.Struct{}, ended: map[string]bool{}}
	for _, ev := range events {
		if ev.InvocationId != invocationID {
			continue
		}
		switch a := ev.GetActions(); {
		case a.GetEndOfAgent():
			c.ended[ev.Author] = true
			delete(c.states, ev.Author)
		case a.GetAgentState() != nil:
			c.states[ev.Author] = a.GetAgentState()
			c.ended[ev.Author] = false
		}
	}
	return c
}

// Resumable reports whether the invocation records checkpoints (the app is
// resumable).
func (ictx *InvocationContext) Resumable() bool { return ictx.inv.checkpoints != nil }

// AgentState returns the checkpoint of the named agent in this invocation,
// or nil.
func (ictx *InvocationContext) AgentState(name string) *structpb.Struct {
	c := ictx.inv.checkpoints
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.states[name]
}

// AgentEnded reports whether the named agent finished earlier in this
// invocation.
func (ictx *InvocationContext) AgentEnded(name string) bool {
	c := ictx.inv.checkpoints
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ended[name]
}

// Checkpoint records the context agent's state, or with a nil state its end,
// and returns the event that stores it (ADK's agent state event). It returns
// nil when the invocation is not resumable.
func (ictx *InvocationContext) Checkpoint(state *structpb.Struct) *v1.Event {
	c := ictx.inv.checkpoints
	if c == nil {
		return nil
	}
	name := ictx.Agent.Name()
	ev := ictx.NewEvent()
	c.mu.Lock()
	if state == nil {
		c.ended[name] = true
		delete(c.states, name)
		ev.Actions.EndOfAgent = true
	} else {
		c.states[name] = state
		c.ended[name] = false
		ev.Actions.AgentState = state
	}
	c.mu.Unlock()
	return ev
}

// ShouldPause reports whether ev pauses a resumable invocation: it calls a
// long-running tool, whose answer will resume the invocation.
func (ictx *InvocationContext) ShouldPause(ev *v1.Event) bool {
	if ictx.inv.checkpoints == nil || len(ev.LongRunningToolIds) == 0 {
		return false
	}
	for _, fc := range FunctionCalls(ev) {
		for _, id := range ev.LongRunningToolIds {
			if fc.Id == id {
				return true
			}
		}
	}
	return false
}
