package memory_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/memory"
)

// TestWords checks ADK's word rules (re.findall(r'[A-Za-z]+', text), lower
// case, as a set), as google-adk 1.39.1 applies them.
func TestWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		texts []string
		want  []string
	}{
		{nil, nil},
		{[]string{""}, nil},
		{[]string{"  ...  42 3.14 "}, nil},
		{[]string{"Hello, World!"}, []string{"hello", "world"}},
		{[]string{"SUNNY sunny Sunny"}, []string{"sunny"}},
		{[]string{"café naïve über"}, []string{"ber", "caf", "na", "ve"}},
		{[]string{"straße Ωmega tokyo東京"}, []string{"e", "mega", "stra", "tokyo"}},
		{[]string{"it's e-mail snake_case camelCase"}, []string{"camelcase", "case", "e", "it", "mail", "s", "snake"}},
		{[]string{"tau1 9upsilon x"}, []string{"tau", "upsilon", "x"}},
		{[]string{"new\nline", "tab\there"}, []string{"here", "line", "new", "tab"}},
		{[]string{"foo", "bar"}, []string{"bar", "foo"}},
		{[]string{"\u212aelvin"}, []string{"elvin"}}, // the Kelvin sign is no ASCII letter
	} {
		if diff := cmp.Diff(tc.want, memory.Words(tc.texts...)); diff != "" {
			t.Errorf("Words(%q) (-want +got):\n%s", tc.texts, diff)
		}
	}
}

func BenchmarkWords(b *testing.B) {
	text := strings.Repeat("The weather in Paris is SUNNY, and the forecast says it's warm. ", 16)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		memory.Words(text)
	}
}
