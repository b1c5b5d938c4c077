package memorytest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

var limitCases = []contractCase{
	{"QueryBytes", testQueryBytes},
	{"DefaultQueryBytes", testDefaultQueryBytes},
	{"MaxResultsKeepsTheFirst", testMaxResultsKeepsTheFirst},
	{"DefaultMaxResults", testDefaultMaxResults},
	{"EntriesPerUser", testEntriesPerUser},
	{"ManyQueryWords", testManyQueryWords},
}

// numbered returns n events whose text is word followed by its index
// spelled in letters, so that each is findable alone.
func numbered(word string, n int) []*v1.Event {
	out := make([]*v1.Event, n)
	for i := range out {
		out[i] = said("agent", float64(i), fmt.Sprintf("%s %s", word, spell(i)))
	}
	return out
}

// spell writes i in base 26 with the letters a to z.
func spell(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('a' + i%26)}, b...)
		if i /= 26; i == 0 {
			return "n" + string(b)
		}
	}
}

func testQueryBytes(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{MaxQueryBytes: 20})
	add(t, svc, session("app", "u", "s1", said("user", 1, "needle")))
	at := "needle" + strings.Repeat(" ", 14)
	checkTexts(t, svc, "app", "u", at, []string{"needle"})
	if _, err := svc.Search(t.Context(), "app", "u", at+"x"); !errors.Is(err, memory.ErrQueryTooLarge) {
		t.Errorf("Search of 21 bytes past a limit of 20: %v, want ErrQueryTooLarge", err)
	}
}

func testDefaultQueryBytes(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	add(t, svc, session("app", "u", "s1", said("user", 1, "needle")))
	at := "needle" + strings.Repeat(" x", (memory.DefaultMaxQueryBytes-6)/2)
	checkTexts(t, svc, "app", "u", at, []string{"needle"})
	if _, err := svc.Search(t.Context(), "app", "u", at+"xx"); !errors.Is(err, memory.ErrQueryTooLarge) {
		t.Errorf("Search past the default limit: %v, want ErrQueryTooLarge", err)
	}
	unbounded := newService(t, memory.Limits{MaxQueryBytes: -1})
	add(t, unbounded, session("app", "u", "s1", said("user", 1, "needle")))
	checkTexts(t, unbounded, "app", "u", at+strings.Repeat(" y", 20_000), []string{"needle"})
}

// testMaxResultsKeepsTheFirst: past MaxResults the first entries in search
// order are kept, whichever word found them.
func testMaxResultsKeepsTheFirst(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{MaxResults: 3})
	add(t, svc, session("app", "u", "s1", said("user", 1, "red a"), said("user", 2, "green b")))
	add(t, svc, session("app", "u", "s2", said("user", 3, "blue c"), said("user", 4, "red d"), said("user", 5, "green e")))
	checkTexts(t, svc, "app", "u", "green red blue", []string{"red a", "green b", "blue c"})
	checkTexts(t, svc, "app", "u", "green", []string{"green b", "green e"})
	checkTexts(t, svc, "app", "u", "blue green", []string{"green b", "blue c", "green e"})
}

func testDefaultMaxResults(t *testing.T, newService Factory) {
	n := memory.DefaultMaxResults + 20
	svc := newService(t, memory.Limits{})
	add(t, svc, session("app", "u", "s1", numbered("common", n)...))
	got := search(t, svc, "app", "u", "common")
	if len(got) != memory.DefaultMaxResults {
		t.Fatalf("Search found %d entries, want %d", len(got), memory.DefaultMaxResults)
	}
	if want := "common " + spell(memory.DefaultMaxResults-1); texts(got)[len(got)-1] != want {
		t.Errorf("last entry %q, want %q", texts(got)[len(got)-1], want)
	}
	unbounded := newService(t, memory.Limits{MaxResults: -1})
	add(t, unbounded, session("app", "u", "s1", numbered("common", n)...))
	if got := search(t, unbounded, "app", "u", "common"); len(got) != n {
		t.Errorf("Search without a bound found %d entries, want %d", len(got), n)
	}
}

// testEntriesPerUser: an add that would pass the cap stores nothing; a
// re-add counts the session's new entries in place of its old ones; events
// without words do not count; other users have caps of their own.
func testEntriesPerUser(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{MaxEntriesPerUser: 4})
	add(t, svc, session("app", "u", "s1", numbered("first", 3)...))
	err := svc.AddSession(t.Context(), session("app", "u", "s2", numbered("second", 2)...))
	if !errors.Is(err, memory.ErrTooLarge) {
		t.Fatalf("AddSession past the cap: %v, want ErrTooLarge", err)
	}
	checkTexts(t, svc, "app", "u", "second", nil)
	if got := search(t, svc, "app", "u", "first"); len(got) != 3 {
		t.Errorf("after the refused add, %d entries of s1, want 3", len(got))
	}
	// A refused re-add leaves the session as it was.
	if err := svc.AddSession(t.Context(), session("app", "u", "s1", numbered("again", 5)...)); !errors.Is(err, memory.ErrTooLarge) {
		t.Fatalf("re-add past the cap: %v, want ErrTooLarge", err)
	}
	checkTexts(t, svc, "app", "u", "again", nil)
	add(t, svc, session("app", "u", "s1", numbered("again", 4)...))
	checkTexts(t, svc, "app", "u", "first", nil)
	if got := search(t, svc, "app", "u", "again"); len(got) != 4 {
		t.Errorf("after the re-add, %d entries, want 4", len(got))
	}
	add(t, svc, session("app", "u", "s3", said("user", 1, "42 ..."), &v1.Event{Author: "user"}))
	add(t, svc, session("app", "v", "s1", numbered("other", 4)...))
	add(t, svc, session("other", "u", "s1", numbered("other", 4)...))
}

// testManyQueryWords: a query of thousands of distinct words, as a long
// message given to preload_memory, is answered like a short one.
func testManyQueryWords(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{MaxQueryBytes: -1})
	add(t, svc, session("app", "u", "s1", said("user", 1, "early "+spell(7)), said("user", 2, "late "+spell(9_000))))
	words := make([]string, 10_000)
	for i := range words {
		words[i] = spell(i)
	}
	checkTexts(t, svc, "app", "u", strings.Join(words, " "), []string{"early " + spell(7), "late " + spell(9_000)})
}
