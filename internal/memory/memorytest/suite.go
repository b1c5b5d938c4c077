// Package memorytest is the contract suite every [memory.Service] passes:
// ADK's matching and order (replayed from answers recorded from google-adk
// itself, see testdata), scoping by app and user, re-adding a session, the
// entries' fields, the [memory.Limits], and concurrent use.
//
// A store's test calls [Run] with a factory that returns a fresh, empty
// service with the given limits and registers its cleanup on t:
//
//	func TestContract(t *testing.T) {
//		memorytest.Run(t, func(tb testing.TB, l memory.Limits) memory.Service {
//			return inmemory.New(inmemory.WithLimits(l))
//		})
//	}
package memorytest

import (
	"strings"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

// Factory returns a fresh, empty service with limits l for one test and
// arranges its cleanup. Services from different calls must not see each
// other's data, so that tests run in parallel.
type Factory func(tb testing.TB, l memory.Limits) memory.Service

// contractCase is one behaviour of the contract.
type contractCase struct {
	name string
	run  func(t *testing.T, newService Factory)
}

// Run runs the whole contract against the services newService returns. Every
// case runs in parallel.
func Run(t *testing.T, newService Factory) {
	t.Helper()
	var all []contractCase
	all = append(all, goldenCases...)
	all = append(all, matchCases...)
	all = append(all, orderCases...)
	all = append(all, entryCases...)
	all = append(all, limitCases...)
	all = append(all, concurrencyCases...)
	all = append(all, modelCases...)
	for _, c := range all {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newService)
		})
	}
}

// session builds a session of app and user holding events.
func session(app, user, id string, events ...*v1.Event) *v1.Session {
	return &v1.Session{Id: id, AppName: app, UserId: user, Events: events}
}

// said builds an event by author at ts whose content holds one text part
// per text.
func said(author string, ts float64, texts ...string) *v1.Event {
	role := "model"
	if author == "user" {
		role = "user"
	}
	c := &v1.Content{Role: role}
	for _, t := range texts {
		c.Parts = append(c.Parts, &v1.Part{Text: t})
	}
	return &v1.Event{Id: "ev-" + author, InvocationId: "e-test", Author: author, Timestamp: ts, Content: c}
}

// add adds sess or fails the test.
func add(t testing.TB, svc memory.Service, sess *v1.Session) {
	t.Helper()
	if err := svc.AddSession(t.Context(), sess); err != nil {
		t.Fatalf("AddSession(%s/%s/%s): %v", sess.GetAppName(), sess.GetUserId(), sess.GetId(), err)
	}
}

// search searches or fails the test.
func search(t testing.TB, svc memory.Service, app, user, query string) []memory.Entry {
	t.Helper()
	got, err := svc.Search(t.Context(), app, user, query)
	if err != nil {
		t.Fatalf("Search(%s/%s, %q): %v", app, user, query, err)
	}
	return got
}

// texts returns, per entry, its text parts joined by "|".
func texts(entries []memory.Entry) []string {
	var out []string
	for _, e := range entries {
		var parts []string
		for _, p := range e.Content.GetParts() {
			parts = append(parts, p.GetText())
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out
}
