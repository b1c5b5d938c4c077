package redis

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// benchStores are the stores the append benchmarks compare: one Redis, and
// the test cluster with and without the wait for a replica.
func benchStores(b *testing.B) []struct {
	name string
	svc  func(b *testing.B) *Service
} {
	opts := Options{TTL: 24 * time.Hour, Limits: sessions.Limits{MaxEvents: -1, MaxBytes: -1}}
	return []struct {
		name string
		svc  func(b *testing.B) *Service
	}{
		{"redis", func(b *testing.B) *Service { return newTestService(b, opts) }},
		{"cluster", func(b *testing.B) *Service { svc, _ := newClusterTestService(b, opts); return svc }},
		{"cluster-nowait", func(b *testing.B) *Service {
			o := opts
			o.WaitReplicas = -1
			svc, _ := newClusterTestService(b, o)
			return svc
		}},
	}
}

// appEvent is benchEvent with an app: key in its delta, which on a cluster
// costs a second round trip.
func appEvent(i int) *v1.Event {
	ev := benchEvent(i)
	ev.Actions.StateDelta.Fields["app:hits"] = structpb.NewNumberValue(float64(i))
	return ev
}

// BenchmarkStoreAppend is one caller appending to one session: the latency
// of an append on each store, with and without app state in the delta.
func BenchmarkStoreAppend(b *testing.B) {
	for _, store := range benchStores(b) {
		for _, withApp := range []bool{false, true} {
			name := store.name
			event := benchEvent
			if withApp {
				name, event = name+"/app-state", appEvent
			}
			b.Run(name, func(b *testing.B) {
				svc := store.svc(b)
				sess, err := svc.Create(b.Context(), sessions.CreateRequest{AppName: "app", UserID: "u"})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if err := svc.AppendEvent(b.Context(), sess, event(i)); err != nil {
						b.Fatal(err)
					}
					sess.Events = nil
					i++
				}
			})
		}
	}
}

// BenchmarkStoreAppendParallel is many callers, each appending to a session
// of its own user (so that on a cluster they spread over the primaries):
// the throughput of each store under the same load.
func BenchmarkStoreAppendParallel(b *testing.B) {
	for _, store := range benchStores(b) {
		b.Run(store.name, func(b *testing.B) {
			svc := store.svc(b)
			var users atomic.Int64
			b.SetParallelism(16)
			b.ReportAllocs()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				user := fmt.Sprintf("user-%d", users.Add(1))
				sess, err := svc.Create(b.Context(), sessions.CreateRequest{AppName: "app", UserID: user})
				if err != nil {
					b.Error(err)
					return
				}
				i := 0
				for pb.Next() {
					if err := svc.AppendEvent(b.Context(), sess, benchEvent(i)); err != nil {
						b.Error(err)
						return
					}
					sess.Events = nil
					i++
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "appends/s")
		})
	}
}
