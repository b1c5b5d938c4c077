package memorytest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

// The benchmark corpus: one user holding benchSessions sessions of
// benchEventsPerSession events, each event benchWordsPerEvent words drawn
// evenly from benchVocabulary words, plus the word "turn" in every event.
// A vocabulary word is then in about 20 of the 10,000 memories.
const (
	benchSessions         = 500
	benchEventsPerSession = 20
	benchWordsPerEvent    = 10
	benchVocabulary       = 5_000
)

// benchEvents returns the events of corpus session i.
func benchEvents(rng *rand.Rand, i int) []*v1.Event {
	events := make([]*v1.Event, benchEventsPerSession)
	for j := range events {
		words := []string{"turn"}
		for range benchWordsPerEvent {
			words = append(words, spell(rng.IntN(benchVocabulary)))
		}
		author := "user"
		if j%2 == 1 {
			author = "agent"
		}
		events[j] = said(author, float64(1_700_000_000+i*100+j), strings.Join(words, " "))
	}
	return events
}

// BenchmarkSearch measures searches of a user holding 10,000 memories, with
// the default limits (at most 1,000 results): a word found in about 20
// memories, a 12-word sentence finding about 240, a word in every memory,
// and a word in none.
func BenchmarkSearch(b *testing.B, newService Factory) {
	svc := newService(b, memory.Limits{})
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range benchSessions {
		add(b, svc, session("app", "u", fmt.Sprintf("s%d", i), benchEvents(rng, i)...))
	}
	sentence := make([]string, 12)
	for i := range sentence {
		sentence[i] = spell(rng.IntN(benchVocabulary))
	}
	stored := benchSessions * benchEventsPerSession
	for _, q := range []struct{ name, query string }{
		{"one_word_in_20", spell(42)},
		{"sentence_of_12_words_in_240", "Tell me, what did we say about " + strings.Join(sentence, " ") + "?"},
		{"word_in_all_capped_at_1000", "turn"},
		{"word_in_none", "absent"},
	} {
		b.Run(fmt.Sprintf("memories=%d/%s", stored, q.name), func(b *testing.B) {
			b.ReportAllocs()
			found := 0
			for b.Loop() {
				got, err := svc.Search(b.Context(), "app", "u", q.query)
				if err != nil {
					b.Fatal(err)
				}
				found = len(got)
			}
			b.ReportMetric(float64(found), "entries/op")
		})
	}
}

// BenchmarkAddSession measures adding a session of 20 events: a new session
// of a user holding up to 10,000 memories (a fresh store every 500 adds),
// and the same session added again to a user holding 10,000, which
// replaces its entries.
func BenchmarkAddSession(b *testing.B, newService Factory) {
	b.Run(fmt.Sprintf("new_session/events=%d", benchEventsPerSession), func(b *testing.B) {
		rng := rand.New(rand.NewPCG(3, 4))
		sessions := make([]*v1.Session, benchSessions)
		for i := range sessions {
			sessions[i] = session("app", "u", fmt.Sprintf("s%d", i), benchEvents(rng, i)...)
		}
		var svc memory.Service
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if i%benchSessions == 0 {
				b.StopTimer()
				svc = newService(b, memory.Limits{})
				b.StartTimer()
			}
			if err := svc.AddSession(b.Context(), sessions[i%benchSessions]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run(fmt.Sprintf("same_session_again/events=%d/memories=%d", benchEventsPerSession, benchSessions*benchEventsPerSession), func(b *testing.B) {
		rng := rand.New(rand.NewPCG(5, 6))
		svc := newService(b, memory.Limits{})
		var last *v1.Session
		for i := range benchSessions {
			last = session("app", "u", fmt.Sprintf("s%d", i), benchEvents(rng, i)...)
			add(b, svc, last)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := svc.AddSession(b.Context(), last); err != nil {
				b.Fatal(err)
			}
		}
	})
}
