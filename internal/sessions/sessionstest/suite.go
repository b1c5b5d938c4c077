// Package sessionstest is the contract suite every [sessions.Service] passes:
// the behaviour facts S1–S3 (state scopes, reads, creates), ids, timestamps,
// versions and stale handles, leases, and concurrent appends.
//
// A store's test calls [Run] with a factory that returns a fresh, empty
// service per call and registers its cleanup on t:
//
//	func TestContract(t *testing.T) {
//		sessionstest.Run(t, func(t *testing.T) sessions.Service {
//			s := memory.New()
//			t.Cleanup(func() { s.Close() })
//			return s
//		})
//	}
package sessionstest

import (
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Factory returns a fresh, empty service for one test and arranges its
// cleanup. Services from different calls must not see each other's data, so
// that tests run in parallel.
type Factory func(t *testing.T) sessions.Service

// contractCase is one behaviour of the contract.
type contractCase struct {
	name string
	run  func(t *testing.T, svc sessions.Service)
}

// Run runs the whole contract against the services newService returns. Every
// case runs in parallel with its own service.
func Run(t *testing.T, newService Factory) {
	t.Helper()
	var all []contractCase
	all = append(all, createCases...)
	all = append(all, getCases...)
	all = append(all, compactedCases...)
	all = append(all, stateCases...)
	all = append(all, appendCases...)
	all = append(all, leaseCases...)
	all = append(all, concurrencyCases...)
	all = append(all, pageCases...)
	all = append(all, listCases...)
	all = append(all, tailCases...)
	for _, c := range all {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newService(t))
		})
	}
}

// mustStruct builds a Struct from Go values, failing the test on error.
func mustStruct(t testing.TB, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatalf("structpb.NewStruct(%v): %v", m, err)
	}
	return s
}

// create makes a session or fails the test.
func create(t testing.TB, svc sessions.Service, app, user, id string, state map[string]any) *v1.Session {
	t.Helper()
	req := sessions.CreateRequest{AppName: app, UserID: user, SessionID: id}
	if state != nil {
		req.State = mustStruct(t, state)
	}
	sess, err := svc.Create(t.Context(), req)
	if err != nil {
		t.Fatalf("Create(%s/%s/%s): %v", app, user, id, err)
	}
	return sess
}

// get reads a whole session or fails the test.
func get(t testing.TB, svc sessions.Service, sess *v1.Session) *v1.Session {
	t.Helper()
	got, err := svc.Get(t.Context(), sessions.GetRequest{
		AppName: sess.GetAppName(), UserID: sess.GetUserId(), SessionID: sess.GetId(),
	})
	if err != nil {
		t.Fatalf("Get(%s): %v", sess.GetId(), err)
	}
	return got
}

// event builds an event by author with the given state delta (nil for none)
// and timestamp (zero lets the store set it).
func event(t testing.TB, author string, delta map[string]any, ts float64) *v1.Event {
	t.Helper()
	ev := &v1.Event{
		InvocationId: "e-test",
		Author:       author,
		Timestamp:    ts,
		Content: &v1.Content{Role: "model", Parts: []*v1.Part{
			{Text: "said by " + author},
		}},
	}
	if delta != nil {
		ev.Actions = &v1.EventActions{StateDelta: mustStruct(t, delta)}
	}
	return ev
}

// appendEvent appends or fails the test.
func appendEvent(t testing.TB, svc sessions.Service, sess *v1.Session, ev *v1.Event) {
	t.Helper()
	if err := svc.AppendEvent(t.Context(), sess, ev); err != nil {
		t.Fatalf("AppendEvent(%s): %v", sess.GetId(), err)
	}
}

// ref names a session without holding a handle to it.
func ref(app, user, id string) *v1.Session {
	return &v1.Session{AppName: app, UserId: user, Id: id}
}
