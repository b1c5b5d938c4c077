package runtime

import (
	"fmt"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// BenchmarkDanglingCallsScan measures the scan every run makes of its
// session for calls left without a response: 1,000 events, a third of them
// calls and a third their responses.
func BenchmarkDanglingCallsScan(b *testing.B) {
	var events []*v1.Event
	for i := range 333 {
		id := fmt.Sprintf("adk-%d", i)
		events = append(events,
			&v1.Event{Author: "user", Content: &v1.Content{Parts: []*v1.Part{{Text: "hi"}}}},
			&v1.Event{Author: "a", Content: &v1.Content{Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: id, Name: "t"}}}}},
			&v1.Event{Author: "a", Content: &v1.Content{Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: id, Name: "t"}}}}})
	}
	b.ReportAllocs()
	for b.Loop() {
		if calls := danglingCalls(events, ""); len(calls) != 0 {
			b.Fatal(calls)
		}
	}
}
