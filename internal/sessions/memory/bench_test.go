package memory_test

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

func benchEvent(i int) *v1.Event {
	return &v1.Event{
		InvocationId: "e-bench",
		Author:       "agent",
		Content:      &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "an answer of moderate length for the benchmark"}}},
		Actions: &v1.EventActions{StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{
			"count": structpb.NewNumberValue(float64(i)), "temp:scratch": structpb.NewBoolValue(true),
		}}},
	}
}

func BenchmarkAppendEvent(b *testing.B) {
	// No caps: the benchmark appends past the default number of events.
	svc := memory.New(memory.WithLimits(sessions.Limits{MaxEvents: -1, MaxBytes: -1}))
	sess, err := svc.Create(b.Context(), sessions.CreateRequest{AppName: "app", UserID: "u", SessionID: "s"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := svc.AppendEvent(b.Context(), sess, benchEvent(i)); err != nil {
			b.Fatal(err)
		}
		i++
		sess.Events = nil // the handle's history is the caller's, not the store's cost
	}
}

func BenchmarkGetLast50(b *testing.B) {
	for _, size := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("history=%d", size), func(b *testing.B) {
			svc := memory.New()
			sess, err := svc.Create(b.Context(), sessions.CreateRequest{AppName: "app", UserID: "u", SessionID: "s"})
			if err != nil {
				b.Fatal(err)
			}
			for i := range size {
				if err := svc.AppendEvent(b.Context(), sess, benchEvent(i)); err != nil {
					b.Fatal(err)
				}
			}
			req := sessions.GetRequest{AppName: "app", UserID: "u", SessionID: "s", NumRecentEvents: 50}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := svc.Get(b.Context(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
