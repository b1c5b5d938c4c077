package contents_test

import (
	"fmt"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
)

// history returns n events of turns shaped like real tool use: a user
// question, a call, its response and an answer. Call ids start with
// idPrefix: "adk-" for ids the engine made (cleared in requests), anything
// else for ids from the model. With textOnly, every event is plain text.
func history(n int, idPrefix string, textOnly bool) []*v1.Event {
	events := make([]*v1.Event, 0, n)
	for i := 0; len(events) < n; i++ {
		id := fmt.Sprintf(idPrefix+"%08d-aaaa-bbbb-cccc-000000000000", i)
		turn := []*v1.Event{
			user(fmt.Sprintf("question %d", i)),
			calls(agent, callPart(id, "lookup", map[string]any{"query": "x", "page": i})),
			responds(agent, respPart(id, "lookup", map[string]any{"result": "some text", "ok": true})),
			said(agent, fmt.Sprintf("answer %d", i)),
		}
		if textOnly {
			turn[1] = said(agent, "thinking aloud")
			turn[2] = user("more detail")
		}
		events = append(events, turn...)
	}
	return events[:n]
}

func BenchmarkBuild(b *testing.B) {
	for _, bc := range []struct {
		name     string
		n        int
		idPrefix string
		textOnly bool
		keepIDs  bool
	}{
		{"mixed/10", 10, "adk-", false, false},
		{"mixed/1000", 1000, "adk-", false, false},
		{"mixed-model-ids/1000", 1000, "call_", false, false},
		{"text/10", 10, "", true, false},
		{"text/1000", 1000, "", true, false},
		// The engine's setting: the model adapters clear the ids, so Build
		// shares the stored contents.
		{"keep-ids/mixed/10", 10, "adk-", false, true},
		{"keep-ids/mixed/1000", 1000, "adk-", false, true},
		{"keep-ids/text/1000", 1000, "", true, true},
	} {
		events := history(bc.n, bc.idPrefix, bc.textOnly)
		opts := contents.Options{KeepClientIDs: bc.keepIDs}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := contents.Build(events, agent, "", opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildTwoSteps builds the requests of a two-step invocation (a
// tool call, then the answer) over a history of prior turns: one build
// over the history and the new user message, one with the call and its
// response added, as the engine does (ids kept).
func BenchmarkBuildTwoSteps(b *testing.B) {
	for _, n := range []int{10, 1000} {
		events := history(n+3, "adk-", false)
		first, second := events[:n+1], events[:n+3]
		opts := contents.Options{KeepClientIDs: true}
		b.Run(fmt.Sprintf("history=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := contents.Build(first, agent, "", opts); err != nil {
					b.Fatal(err)
				}
				if _, err := contents.Build(second, agent, "", opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("history=%d/cache", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cached := contents.Options{KeepClientIDs: true, Cache: new(contents.Cache)}
				if _, err := contents.Build(first, agent, "", cached); err != nil {
					b.Fatal(err)
				}
				if _, err := contents.Build(second, agent, "", cached); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
