package llmagent

import "testing"

// TestPyTitle: field titles as Python's str.title writes them (pydantic's
// default titles of ADK 2.x's set_model_response schema).
func TestPyTitle(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"agent name": "Agent Name", "score": "Score", "a1b": "A1B",
		"mY field": "My Field", "x-ray": "X-Ray", "": ""} {
		if got := pyTitle(in); got != want {
			t.Errorf("pyTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
