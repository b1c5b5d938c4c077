package redis

import (
	"fmt"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

func benchEvent(i int) *v1.Event {
	return &v1.Event{
		InvocationId: "e-bench",
		Author:       "agent",
		Content:      &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "an answer of moderate length for the benchmark"}}},
		Actions: &v1.EventActions{StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{
			"count": structpb.NewNumberValue(float64(i)), "user:seen": structpb.NewNumberValue(float64(i)),
			"temp:scratch": structpb.NewBoolValue(true),
		}}},
	}
}

// benchSession creates a session holding n events.
func benchSession(b *testing.B, svc *Service, n int) *v1.Session {
	b.Helper()
	sess, err := svc.Create(b.Context(), sessions.CreateRequest{AppName: "app", UserID: "u"})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if err := svc.AppendEvent(b.Context(), sess, benchEvent(i)); err != nil {
			b.Fatal(err)
		}
	}
	sess.Events = nil
	return sess
}

func BenchmarkAppendEvent(b *testing.B) {
	// No caps: the benchmark appends past the default number of events.
	svc, counter := newCountingService(b, Options{TTL: 24 * time.Hour, Limits: sessions.Limits{MaxEvents: -1, MaxBytes: -1}})
	sess := benchSession(b, svc, 1)
	counter.reset()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := svc.AppendEvent(b.Context(), sess, benchEvent(i)); err != nil {
			b.Fatal(err)
		}
		i++
		sess.Events = nil // the handle's history is the caller's, not the store's cost
	}
	n, _ := counter.reset()
	b.ReportMetric(float64(n)/float64(i), "roundtrips/op")
}

func BenchmarkGetLast50(b *testing.B) {
	for _, size := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("history=%d", size), func(b *testing.B) {
			svc, counter := newCountingService(b, Options{})
			sess := benchSession(b, svc, size)
			req := sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id, NumRecentEvents: 50}
			counter.reset()
			b.ReportAllocs()
			ops := 0
			for b.Loop() {
				got, err := svc.Get(b.Context(), req)
				if err != nil || len(got.Events) != 50 {
					b.Fatalf("Get: %d events, %v", len(got.GetEvents()), err)
				}
				ops++
			}
			n, _ := counter.reset()
			b.ReportMetric(float64(n)/float64(ops), "roundtrips/op")
		})
	}
}

func BenchmarkGetAfterTimestamp50(b *testing.B) {
	for _, size := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("history=%d", size), func(b *testing.B) {
			svc, _ := newCountingService(b, Options{})
			sess := benchSession(b, svc, size)
			all, err := svc.Get(b.Context(), sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id, NumRecentEvents: 50})
			if err != nil {
				b.Fatal(err)
			}
			req := sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id, AfterTimestamp: all.Events[0].Timestamp}
			b.ReportAllocs()
			for b.Loop() {
				got, err := svc.Get(b.Context(), req)
				if err != nil || len(got.Events) != 50 {
					b.Fatalf("Get: %d events, %v", len(got.GetEvents()), err)
				}
			}
		})
	}
}

// BenchmarkGetTail reads a session of 10,000 events whose first all but
// two the caller holds (tail=2), against a read of it whole.
func BenchmarkGetTail(b *testing.B) {
	svc, counter := newCountingService(b, Options{})
	sess := benchSession(b, svc, 10_000)
	req := sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id}
	_, held, _, err := svc.GetTail(b.Context(), req, sessions.Held{})
	if err != nil {
		b.Fatal(err)
	}
	for _, tail := range []int{2, 10_000} {
		b.Run(fmt.Sprintf("tail=%d", tail), func(b *testing.B) {
			from := sessions.Held{Events: held.Events - tail, Incarnation: held.Incarnation}
			counter.reset()
			b.ReportAllocs()
			ops := 0
			for b.Loop() {
				got, _, _, err := svc.GetTail(b.Context(), req, from)
				if err != nil || len(got.Events) != tail {
					b.Fatalf("GetTail: %d events, %v", len(got.GetEvents()), err)
				}
				ops++
			}
			n, _ := counter.reset()
			b.ReportMetric(float64(n)/float64(ops), "roundtrips/op")
		})
	}
}
