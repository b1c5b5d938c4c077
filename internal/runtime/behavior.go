package runtime

import "fmt"

// Behavior selects which line of ADK releases an app behaves like where
// their runtime behaviour differs. The zero value is [Behavior1x].
type Behavior int

const (
	// Behavior1x is ADK 1.x, the default.
	Behavior1x Behavior = iota
	// Behavior2x is ADK 2.x (2.13): the 2.x transfer_to_agent declaration,
	// and an unknown tool answered to the model as an error response
	// instead of failing the run.
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
