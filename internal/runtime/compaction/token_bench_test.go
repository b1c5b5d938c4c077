package compaction_test

import (
	"fmt"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
)

// longSession returns n events alternating text, calls and responses,
// with usage on every model answer.
func longSession(n int) []*v1.Event {
	events := make([]*v1.Event, 0, n)
	for i := range n {
		id := fmt.Sprint("c", i/3)
		switch i % 3 {
		case 0:
			events = append(events, textEvent("q", float64(i)))
		case 1:
			e := callEvent("c", id, float64(i))
			e.UsageMetadata = &v1.UsageMetadata{PromptTokenCount: int32(i)}
			events = append(events, e)
		default:
			events = append(events, responseEvent("r", id, float64(i)))
		}
	}
	return events
}

// BenchmarkTokenCheck is the check made before every model request of an
// app with a token threshold: the latest prompt count.
func BenchmarkTokenCheck(b *testing.B) {
	events := longSession(3000)
	for b.Loop() {
		compaction.LatestPromptTokens(events)
	}
}

// BenchmarkTokenWindow is the selection made when the threshold is
// reached.
func BenchmarkTokenWindow(b *testing.B) {
	events := longSession(3000)
	for b.Loop() {
		compaction.TokenWindow(events, 10)
	}
}
