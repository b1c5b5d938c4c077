package memorytest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/memory"
)

var orderCases = []contractCase{
	{"OrdersBySessionThenEvent", testOrdersBySessionThenEvent},
	{"ReAddReplacesInPlace", testReAddReplacesInPlace},
	{"EmptySessionTakesItsPlace", testEmptySessionTakesItsPlace},
	{"ScopedByAppAndUser", testScopedByAppAndUser},
	{"UnknownUserFindsNothing", testUnknownUserFindsNothing},
}

func checkTexts(t *testing.T, svc memory.Service, app, user, query string, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, texts(search(t, svc, app, user, query))); diff != "" {
		t.Errorf("Search(%s/%s, %q) (-want +got):\n%s", app, user, query, diff)
	}
}

// testOrdersBySessionThenEvent: sessions in the order first added, events in
// session order; timestamps and session ids play no part.
func testOrdersBySessionThenEvent(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	add(t, svc, session("app", "u", "zz", said("user", 50, "red one"), said("agent", 10, "blue two"), said("user", 5, "red three")))
	add(t, svc, session("app", "u", "aa", said("user", 1, "blue four"), said("agent", 2, "red five")))
	add(t, svc, session("app", "u", "mm", said("user", 100, "red six")))
	checkTexts(t, svc, "app", "u", "red", []string{"red one", "red three", "red five", "red six"})
	checkTexts(t, svc, "app", "u", "blue red", []string{"red one", "blue two", "red three", "blue four", "red five", "red six"})
	checkTexts(t, svc, "app", "u", "six four two", []string{"blue two", "blue four", "red six"})
}

// testReAddReplacesInPlace: adding a session again replaces its entries
// (none of the old ones stays findable) and keeps its place in the order.
func testReAddReplacesInPlace(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	add(t, svc, session("app", "u", "s1", said("user", 1, "alpha old"), said("agent", 2, "beta old")))
	add(t, svc, session("app", "u", "s2", said("user", 3, "alpha second")))
	add(t, svc, session("app", "u", "s1", said("user", 1, "alpha new"), said("agent", 2, "gamma new"), said("agent", 4, "alpha newer")))
	checkTexts(t, svc, "app", "u", "alpha", []string{"alpha new", "alpha newer", "alpha second"})
	checkTexts(t, svc, "app", "u", "beta old", nil)
	checkTexts(t, svc, "app", "u", "gamma", []string{"gamma new"})

	// The same session again: no duplicates.
	again := session("app", "u", "s1", said("user", 1, "alpha new"), said("agent", 2, "gamma new"), said("agent", 4, "alpha newer"))
	add(t, svc, again)
	add(t, svc, again)
	checkTexts(t, svc, "app", "u", "alpha gamma", []string{"alpha new", "gamma new", "alpha newer", "alpha second"})

	// Emptied: the session's entries are gone, the others stay.
	add(t, svc, session("app", "u", "s1"))
	checkTexts(t, svc, "app", "u", "alpha gamma new", []string{"alpha second"})
}

// testEmptySessionTakesItsPlace: a session added without an entry still
// takes its place in the order, as in ADK, where it is a key of an ordered
// dict.
func testEmptySessionTakesItsPlace(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	add(t, svc, session("app", "u", "s3"))
	add(t, svc, session("app", "u", "s4", said("agent", 6, "sunny four")))
	add(t, svc, session("app", "u", "s3", said("agent", 5, "sunny three")))
	checkTexts(t, svc, "app", "u", "sunny", []string{"sunny three", "sunny four"})
}

// testScopedByAppAndUser: a search sees only its app and user, whatever
// characters their names hold, and the same session id in another scope is
// another session.
func testScopedByAppAndUser(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	scopes := [][2]string{
		{"app", "u"}, {"app", "v"}, {"other", "u"},
		{"a/b", "c"}, {"a", "b/c"},
		{"a{x}", "y"}, {"a", "{x}y"}, {"a%2F", "b"}, {"a/", "b"},
		{"", ""}, {"", "u"}, {"app:", "u"}, {"東京", "ü"},
	}
	for i, sc := range scopes {
		add(t, svc, session(sc[0], sc[1], "s1", said("user", float64(i), "shared word "+sc[0]+" "+sc[1])))
	}
	for _, sc := range scopes {
		checkTexts(t, svc, sc[0], sc[1], "shared", []string{"shared word " + sc[0] + " " + sc[1]})
	}
	// Re-adding s1 in one scope leaves the others alone.
	add(t, svc, session("app", "u", "s1", said("user", 99, "replaced")))
	checkTexts(t, svc, "app", "u", "shared replaced", []string{"replaced"})
	checkTexts(t, svc, "app", "v", "shared replaced", []string{"shared word app v"})
	checkTexts(t, svc, "other", "u", "shared replaced", []string{"shared word other u"})
}

func testUnknownUserFindsNothing(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	checkTexts(t, svc, "app", "nobody", "anything", nil)
	add(t, svc, session("app", "u", "s1", said("user", 1, "anything")))
	checkTexts(t, svc, "app", "nobody", "anything", nil)
	checkTexts(t, svc, "ap", "u", "anything", nil)
}
