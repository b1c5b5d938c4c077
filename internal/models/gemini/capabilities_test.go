package gemini

import "testing"

func TestGeminiMajorVersion(t *testing.T) {
	t.Parallel()
	tests := map[string]int{
		"gemini-2.5-flash":      2,
		"models/gemini-1.5-pro": 1,
		"gemini-3-pro-preview":  3,
		"projects/p/locations/l/publishers/google/models/gemini-2.0-flash": 2,
		"gpt-4o":                 0,
		"gemini-flash-early-exp": 0,
	}
	for name, want := range tests {
		if got := geminiMajorVersion(name); got != want {
			t.Errorf("geminiMajorVersion(%q) = %d, want %d", name, got, want)
		}
	}
}
