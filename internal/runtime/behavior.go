package runtime

import (
	"fmt"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Behavior selects which line of ADK releases an app behaves like where
// their runtime behaviour differs. The zero value is [Behavior1x].
type Behavior int

const (
	// Behavior1x is ADK 1.x, the default.
	Behavior1x Behavior = iota
	// Behavior2x is ADK 2.x (2.13): the 2.x tool declarations, an unknown
	// tool answered to the model as an error response instead of failing
	// the run, and a run without a new message continuing the session.
	Behavior2x
)

// ParseBehavior reads an app's adk_behavior setting: "1.x", "2.x", or empty
// for the default, 1.x.
func ParseBehavior(s string) (Behavior, error) {
	switch s {
	case "", "1.x":
		return Behavior1x, nil
	case "2.x":
		return Behavior2x, nil
	}
	return Behavior1x, fmt.Errorf("unknown ADK behaviour %q: want \"1.x\" or \"2.x\"", s)
}

// String returns the setting's text, "1.x" or "2.x".
func (b Behavior) String() string {
	if b == Behavior2x {
		return "2.x"
	}
	return "1.x"
}

// BehaviorDeclarer is implemented by a tool whose declaration differs
// between ADK's release lines, such as the built-in tools ADK declares from
// their docstrings.
type BehaviorDeclarer interface {
	// DeclarationFor is what the model is told in an app of behaviour b.
	DeclarationFor(b Behavior) *v1.FunctionDeclaration
}

// DeclarationFor returns what the model is told about t in an app of
// behaviour b: t's [BehaviorDeclarer] declaration when it has one, else its
// Declaration.
func DeclarationFor(t Tool, b Behavior) *v1.FunctionDeclaration {
	if d, ok := t.(BehaviorDeclarer); ok {
		return d.DeclarationFor(b)
	}
	return t.Declaration()
}

// ContinuesWithoutMessage reports whether a run without a new message
// continues the session, as in ADK 2.x when the root is an LLM agent: the
// agent that would answer a new turn runs on the history as it is. ADK
// 1.x, and 2.x with a workflow root, require a message.
func (a *App) ContinuesWithoutMessage() bool {
	if a.Behavior != Behavior2x {
		return false
	}
	_, llm := a.Tree.Root().(TransferPolicy)
	return llm
}
