package limits_test

import (
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/limits"
)

func TestClip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		n        int
		want     string
	}{
		{"short", "hello", 8, "hello"},
		{"exact", "hello", 5, "hello"},
		{"cut", "hello world", 5, "hello..."},
		{"cut before a split character", "abé", 3, "ab..."},
		{"invalid bytes", "a\xffb", 8, "a\uFFFDb"},
		{"invalid and cut", "a\xffbcdef", 3, "a\uFFFDb..."},
		{"zero", "abc", 0, "..."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := limits.Clip(tc.in, tc.n); got != tc.want {
				t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
			}
		})
	}
	if got := limits.Clip(strings.Repeat("é", 100), 51); got != strings.Repeat("é", 25)+"..." {
		t.Errorf("Clip of a long multibyte string = %q", got)
	}
}
