package sessionstest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// tailCases hold for a service that is a [sessions.TailReader]; they skip
// for one that is not.
var tailCases = []contractCase{
	{"get_tail_reads_the_events_since_and_the_stored_state", func(t *testing.T, svc sessions.Service) {
		tr := tailReader(t, svc)
		sess := create(t, svc, "app", "u1", "s1", map[string]any{"k": 0})
		for range 3 {
			appendEvent(t, svc, sess, event(t, "agent", nil, 0))
		}
		whole, held := getTail(t, tr, sess, sessions.Held{}, false)
		checkTail(t, whole, get(t, svc, sess), 0)
		// Another process appends, through a handle of its own.
		other := get(t, svc, sess)
		appendEvent(t, svc, other, event(t, "other", map[string]any{"k": 1, "app:a": 2}, 0))
		appendEvent(t, svc, other, event(t, "other", nil, 0))
		tail, next := getTail(t, tr, sess, held, true)
		checkTail(t, tail, get(t, svc, sess), 3)
		if next.Events != 5 || next.Incarnation != held.Incarnation {
			t.Errorf("next = %+v, want 5 events of %q", next, held.Incarnation)
		}
		none, again := getTail(t, tr, sess, next, true)
		checkTail(t, none, get(t, svc, sess), 5)
		if again != next {
			t.Errorf("next after an empty tail = %+v, want %+v", again, next)
		}
	}},
	{"get_tail_reads_a_session_created_again_whole", func(t *testing.T, svc sessions.Service) {
		tr := tailReader(t, svc)
		sess := create(t, svc, "app", "u1", "s1", nil)
		for range 2 {
			appendEvent(t, svc, sess, event(t, "agent", nil, 0))
		}
		_, held := getTail(t, tr, sess, sessions.Held{}, false)
		if err := svc.Delete(t.Context(), "app", "u1", "s1"); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := tr.GetTail(t.Context(), sessions.GetRequest{AppName: "app", UserID: "u1", SessionID: "s1"}, held); !errors.Is(err, sessions.ErrNotFound) {
			t.Fatalf("GetTail of a deleted session: %v, want ErrNotFound", err)
		}
		again := create(t, svc, "app", "u1", "s1", nil)
		for range 3 {
			appendEvent(t, svc, again, event(t, "again", nil, 0))
		}
		whole, _ := getTail(t, tr, again, held, false)
		checkTail(t, whole, get(t, svc, again), 0)
		// A mark of another session is not this one's.
		otherSess := create(t, svc, "app", "u1", "s2", nil)
		_, otherHeld := getTail(t, tr, otherSess, sessions.Held{}, false)
		whole, _ = getTail(t, tr, again, otherHeld, false)
		checkTail(t, whole, get(t, svc, again), 0)
	}},
	{"get_tail_takes_only_a_read_of_all_events", func(t *testing.T, svc sessions.Service) {
		tr := tailReader(t, svc)
		create(t, svc, "app", "u1", "s1", nil)
		for _, req := range []sessions.GetRequest{{Select: sessions.SelectCompacted}, {NumRecentEvents: 1}, {AfterTimestamp: 1}} {
			req.AppName, req.UserID, req.SessionID = "app", "u1", "s1"
			if _, _, _, err := tr.GetTail(t.Context(), req, sessions.Held{}); err == nil {
				t.Errorf("GetTail(%+v) succeeded", req)
			}
		}
	}},
}

// tailReader returns svc as a TailReader, skipping the test when it is not
// one.
func tailReader(t *testing.T, svc sessions.Service) sessions.TailReader {
	t.Helper()
	tr, ok := svc.(sessions.TailReader)
	if !ok {
		t.Skip("the service does not read tails")
	}
	return tr
}

// getTail reads sess's tail after held, failing the test on error or when
// the read is not a tail as wantTail says.
func getTail(t *testing.T, tr sessions.TailReader, sess *v1.Session, held sessions.Held, wantTail bool) (*v1.Session, sessions.Held) {
	t.Helper()
	got, next, tail, err := tr.GetTail(t.Context(),
		sessions.GetRequest{AppName: sess.GetAppName(), UserID: sess.GetUserId(), SessionID: sess.GetId()}, held)
	if err != nil {
		t.Fatalf("GetTail(%s, %+v): %v", sess.GetId(), held, err)
	}
	if tail != wantTail {
		t.Fatalf("GetTail(%s, %+v): tail = %v, want %v", sess.GetId(), held, tail, wantTail)
	}
	return got, next
}

// checkTail checks that got is whole, a session read by Get, without its
// first from events.
func checkTail(t *testing.T, got, whole *v1.Session, from int) {
	t.Helper()
	want := &v1.Session{Id: whole.GetId(), AppName: whole.GetAppName(), UserId: whole.GetUserId(),
		State: whole.GetState(), LastUpdateTime: whole.GetLastUpdateTime(), Events: whole.GetEvents()[from:]}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("tail from %d (-want +got):\n%s", from, diff)
	}
}
