package memorytest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

var matchCases = []contractCase{
	{"MatchesWordsAsADK", testMatchesWordsAsADK},
	{"QueryWithoutWordsFindsNothing", testQueryWithoutWordsFindsNothing},
}

// testMatchesWordsAsADK checks ADK's word rules: runs of ASCII letters, any
// case, any query word, text parts only, no word across two parts.
func testMatchesWordsAsADK(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	call := said("agent", 6)
	call.Content.Parts = []*v1.Part{{FunctionCall: &v1.FunctionCall{Name: "lookup_weather"}}, {Text: "calling"}}
	thought := said("agent", 7, "pondering")
	thought.Content.Parts[0].Thought = true
	add(t, svc, session("app", "u", "s1",
		said("user", 1, "Hello, World! café naïve"),
		said("agent", 2, "The weather is SUNNY", "and warm"),
		said("agent", 3, "123 456"),
		said("agent", 4, "foo", "bar"),
		said("agent", 5, "snake_case it's e-mail"),
		call,
		thought,
		&v1.Event{Author: "agent", Timestamp: 8},
		&v1.Event{Author: "agent", Timestamp: 9, Content: &v1.Content{Role: "model"}},
	))
	hello := "Hello, World! café naïve"
	weather := "The weather is SUNNY|and warm"
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"sunny", []string{weather}},
		{"SUNNY!", []string{weather}},
		{"Weather, sunny?", []string{weather}},
		{"warm", []string{weather}},
		{"sun", nil},
		{"sunnyday", nil},
		{"caf", []string{hello}},
		{"café", []string{hello}},
		{"na", []string{hello}},
		{"ve", []string{hello}},
		{"naïve", []string{hello}},
		{"ï", nil},
		{"hello-world", []string{hello}},
		{"world's", []string{hello, "snake_case it's e-mail"}},
		{"123", nil},
		{"456 789", nil},
		{"foobar", nil},
		{"foo", []string{"foo|bar"}},
		{"BAR foo", []string{"foo|bar"}},
		{"snake", []string{"snake_case it's e-mail"}},
		{"case", []string{"snake_case it's e-mail"}},
		{"s", []string{"snake_case it's e-mail"}},
		{"mail", []string{"snake_case it's e-mail"}},
		{"lookup", nil},
		{"lookup_x calling", []string{"|calling"}},
		{"pondering", []string{"pondering"}},
		{"hello sunny foo", []string{hello, weather, "foo|bar"}},
		{"nothing here", nil},
	} {
		if diff := cmp.Diff(tc.want, texts(search(t, svc, "app", "u", tc.query))); diff != "" {
			t.Errorf("Search(%q) (-want +got):\n%s", tc.query, diff)
		}
	}
}

// testQueryWithoutWordsFindsNothing: a query with no word matches nothing,
// not everything.
func testQueryWithoutWordsFindsNothing(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	add(t, svc, session("app", "u", "s1", said("user", 1, "anything at all 42 ...")))
	for _, q := range []string{"", "   ", "...", "42", "éü東京", "\n\t"} {
		if got := search(t, svc, "app", "u", q); len(got) != 0 {
			t.Errorf("Search(%q) = %q, want nothing", q, texts(got))
		}
	}
}
