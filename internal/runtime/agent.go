package runtime

import (
	"fmt"
	"iter"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Agent is a node of an agent tree. Run is the agent's own behaviour (ADK's
// _run_async_impl); callers run an agent through [RunAgent], which adds the
// before/after agent callbacks and the agent's invocation context.
//
// Agents are immutable once built and safe for concurrent invocations.
type Agent interface {
	// Name is unique within the tree.
	Name() string
	// Description tells other agents what this one does.
	Description() string
	// SubAgents are the agent's children, in order.
	SubAgents() []Agent
	// Callbacks are the agent's before/after agent callbacks; nil for none.
	Callbacks() *AgentCallbacks
	// Run yields the agent's events. ictx.Agent is the agent itself.
	Run(ictx *InvocationContext) iter.Seq2[*v1.Event, error]
}

// Tree indexes an agent tree: parents and names. It is immutable and safe
// for concurrent use.
type Tree struct {
	root    Agent
	parents map[string]Agent
	byName  map[string]Agent
}

// NewTree indexes the tree under root. Agent names must be unique.
func NewTree(root Agent) (*Tree, error) {
	t := &Tree{root: root, parents: map[string]Agent{}, byName: map[string]Agent{}}
	var walk func(a, parent Agent) error
	walk = func(a, parent Agent) error {
		if _, dup := t.byName[a.Name()]; dup {
			return AppConfigError(v1.ErrorReason_DUPLICATE_AGENT.String(), fmt.Errorf("agent name %q is used twice in the tree", a.Name()))
		}
		t.byName[a.Name()] = a
		if parent != nil {
			t.parents[a.Name()] = parent
		}
		for _, c := range a.SubAgents() {
			if err := walk(c, a); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// Root returns the root agent.
func (t *Tree) Root() Agent { return t.root }

// Find returns the agent with that name anywhere in the tree, or nil.
func (t *Tree) Find(name string) Agent { return t.byName[name] }

// Parent returns the parent of the named agent, or nil for the root.
func (t *Tree) Parent(name string) Agent { return t.parents[name] }
