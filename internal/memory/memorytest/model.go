package memorytest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

var modelCases = []contractCase{
	{"AgreesWithADKScan", testAgreesWithADKScan},
}

// scanModel is ADK's in-memory service as ADK writes it: per app and user,
// sessions in the order first added, searched by scanning every stored
// event. The stores answer from indexes; they must agree with it.
type scanModel struct {
	order    map[[2]string][]string
	sessions map[[3]string][]*v1.Event
}

func (m *scanModel) add(sess *v1.Session) {
	user := [2]string{sess.GetAppName(), sess.GetUserId()}
	key := [3]string{user[0], user[1], sess.GetId()}
	if _, ok := m.sessions[key]; !ok {
		m.order[user] = append(m.order[user], sess.GetId())
	}
	var kept []*v1.Event
	for _, ev := range sess.GetEvents() {
		if len(ev.GetContent().GetParts()) > 0 {
			kept = append(kept, ev)
		}
	}
	m.sessions[key] = kept
}

func (m *scanModel) search(app, user, query string) []string {
	queryWords := memory.Words(query)
	var found []string
	for _, id := range m.order[[2]string{app, user}] {
		for _, ev := range m.sessions[[3]string{app, user, id}] {
			var parts []string
			for _, p := range ev.GetContent().GetParts() {
				parts = append(parts, p.GetText())
			}
			words := memory.Words(parts...)
			if slices.ContainsFunc(queryWords, func(w string) bool { _, ok := slices.BinarySearch(words, w); return ok }) {
				found = append(found, strings.Join(parts, "|"))
			}
		}
	}
	return found
}

// testAgreesWithADKScan runs seeded random adds, re-adds and searches
// against the store and against ADK's scan, and compares every answer.
func testAgreesWithADKScan(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	model := &scanModel{order: map[[2]string][]string{}, sessions: map[[3]string][]*v1.Event{}}
	rng := rand.New(rand.NewPCG(7, 11))
	vocabulary := []string{"Alpha", "alpha", "BETA", "gamma", "delta-epsilon", "zeta's", "eta_theta", "iota!", "kappa.lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "Σigma", "tau1", "9upsilon", "phi chi", "psi", "omega"}
	text := func(n int) string {
		var w []string
		for range n {
			w = append(w, vocabulary[rng.IntN(len(vocabulary))])
		}
		return strings.Join(w, " ")
	}
	users := [][2]string{{"app", "u1"}, {"app", "u2"}, {"other", "u1"}}
	for step := range 400 {
		u := users[rng.IntN(len(users))]
		if rng.IntN(3) == 0 {
			id := fmt.Sprintf("s%d", rng.IntN(8))
			events := make([]*v1.Event, rng.IntN(12))
			for j := range events {
				parts := rng.IntN(3)
				ev := said("agent", float64(step*100+j))
				if parts > 0 {
					ev.Content.Parts = []*v1.Part{}
				} else if rng.IntN(2) == 0 {
					ev.Content = nil
				}
				for range parts {
					ev.Content.Parts = append(ev.Content.Parts, &v1.Part{Text: text(rng.IntN(4))})
				}
				events[j] = ev
			}
			sess := session(u[0], u[1], id, events...)
			add(t, svc, sess)
			model.add(sess)
			continue
		}
		q := text(1 + rng.IntN(3))
		if diff := cmp.Diff(model.search(u[0], u[1], q), texts(search(t, svc, u[0], u[1], q))); diff != "" {
			t.Fatalf("step %d: Search(%s/%s, %q) (-ADK scan +store):\n%s", step, u[0], u[1], q, diff)
		}
	}
}
