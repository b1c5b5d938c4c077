package sessionstest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

var getCases = []contractCase{
	{"S2_get_selects_recent_events_and_events_after_a_timestamp", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		// Timestamps out of order on purpose: after_timestamp filters by
		// timestamp, it does not cut the history at the first match.
		for _, ts := range []float64{1, 2, 5, 3, 4} {
			appendEvent(t, svc, sess, event(t, "agent", nil, ts))
		}
		tests := []struct {
			name  string
			n     int
			after float64
			want  []float64
		}{
			{"all", 0, 0, []float64{1, 2, 5, 3, 4}},
			{"last_two", 2, 0, []float64{3, 4}},
			{"more_than_stored", 10, 0, []float64{1, 2, 5, 3, 4}},
			{"negative_n_means_all", -1, 0, []float64{1, 2, 5, 3, 4}},
			{"after_is_inclusive", 0, 3, []float64{5, 3, 4}},
			{"after_between", 0, 3.5, []float64{5, 4}},
			{"after_everything", 0, 5.5, nil},
			{"after_before_everything", 0, 0.5, []float64{1, 2, 5, 3, 4}},
			{"last_n_then_after", 3, 4, []float64{5, 4}},
			{"last_n_then_after_none", 2, 4.5, nil},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				got, err := svc.Get(t.Context(), sessions.GetRequest{
					AppName: "app", UserID: "u1", SessionID: "s1",
					NumRecentEvents: tc.n, AfterTimestamp: tc.after,
				})
				if err != nil {
					t.Fatal(err)
				}
				var ts []float64
				for _, ev := range got.GetEvents() {
					ts = append(ts, ev.GetTimestamp())
				}
				if diff := cmp.Diff(tc.want, ts); diff != "" {
					t.Errorf("event timestamps (-want +got):\n%s", diff)
				}
			})
		}
	}},
	{"S2_get_unknown_session_is_not_found", func(t *testing.T, svc sessions.Service) {
		create(t, svc, "app", "u1", "s1", nil)
		for _, r := range []*v1.Session{ref("app", "u1", "nope"), ref("app", "u2", "s1"), ref("other", "u1", "s1")} {
			_, err := svc.Get(t.Context(), sessions.GetRequest{AppName: r.AppName, UserID: r.UserId, SessionID: r.Id})
			if !errors.Is(err, sessions.ErrNotFound) {
				t.Errorf("Get(%s/%s/%s) error = %v, want ErrNotFound", r.AppName, r.UserId, r.Id, err)
			}
		}
	}},
	{"S2_get_returns_whole_events", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		ev := event(t, "agent", map[string]any{"k": []any{1, "two", map[string]any{"three": 3.5}}}, 0)
		ev.Branch = "root.child"
		ev.LongRunningToolIds = []string{"adk-1"}
		ev.Content.Parts = append(ev.Content.Parts, &v1.Part{FunctionCall: &v1.FunctionCall{
			Id: "adk-1", Name: "tool", Args: mustStruct(t, map[string]any{"q": "x"}),
		}})
		ev.Actions.TransferToAgent = "other"
		ev.Actions.ArtifactDelta = map[string]int64{"f.txt": 2}
		appendEvent(t, svc, sess, ev)
		got := get(t, svc, sess)
		if diff := cmp.Diff([]*v1.Event{ev}, got.GetEvents(), protocmp.Transform()); diff != "" {
			t.Errorf("stored events (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(sess, got, protocmp.Transform()); diff != "" {
			t.Errorf("stored session differs from the handle (-handle +stored):\n%s", diff)
		}
	}},
	{"S2_list_omits_events_and_merges_state", func(t *testing.T, svc sessions.Service) {
		a := create(t, svc, "app", "u1", "a", map[string]any{"k": "a"})
		b := create(t, svc, "app", "u1", "b", map[string]any{"k": "b"})
		create(t, svc, "app", "u2", "c", nil)
		create(t, svc, "other", "u1", "d", nil)
		appendEvent(t, svc, a, event(t, "agent", map[string]any{"app:x": 1, "user:y": 2, "z": 3}, 0))
		appendEvent(t, svc, b, event(t, "agent", nil, 0))

		got, err := svc.List(t.Context(), "app", "u1")
		if err != nil {
			t.Fatal(err)
		}
		want := []*v1.Session{get(t, svc, a), get(t, svc, b)}
		for _, s := range want {
			s.Events = nil
		}
		if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
			t.Errorf("List (-want +got):\n%s", diff)
		}
		if got[1].GetState().AsMap()["app:x"] != 1.0 || got[1].GetState().AsMap()["user:y"] != 2.0 {
			t.Errorf("listed session b lacks the shared state: %v", got[1].GetState())
		}
		none, err := svc.List(t.Context(), "app", "nobody")
		if err != nil || len(none) != 0 {
			t.Errorf("List of an unknown user = %v, %v; want empty, nil", none, err)
		}
	}},
	{"S2_delete_removes_the_session_only", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", map[string]any{"k": 1, "user:u": 1, "app:a": 1})
		appendEvent(t, svc, sess, event(t, "agent", map[string]any{"k": 2}, 0))
		for i := range 2 {
			if err := svc.Delete(t.Context(), "app", "u1", "s1"); err != nil {
				t.Fatalf("Delete #%d: %v", i+1, err)
			}
		}
		if err := svc.Delete(t.Context(), "app", "nobody", "never"); err != nil {
			t.Errorf("Delete of a missing session: %v", err)
		}
		if _, err := svc.Get(t.Context(), sessions.GetRequest{AppName: "app", UserID: "u1", SessionID: "s1"}); !errors.Is(err, sessions.ErrNotFound) {
			t.Errorf("Get after Delete error = %v, want ErrNotFound", err)
		}
		if list, err := svc.List(t.Context(), "app", "u1"); err != nil || len(list) != 0 {
			t.Errorf("List after Delete = %v, %v; want empty", list, err)
		}
		if err := svc.AppendEvent(t.Context(), sess, event(t, "agent", nil, 0)); !errors.Is(err, sessions.ErrNotFound) {
			t.Errorf("AppendEvent after Delete error = %v, want ErrNotFound", err)
		}
		again := create(t, svc, "app", "u1", "s1", nil)
		want := mustStruct(t, map[string]any{"user:u": 1, "app:a": 1})
		if diff := cmp.Diff(want, get(t, svc, again).GetState(), protocmp.Transform()); diff != "" {
			t.Errorf("state of the re-created session (-want +got):\n%s", diff)
		}
		if n := len(get(t, svc, again).GetEvents()); n != 0 {
			t.Errorf("re-created session has %d events, want 0", n)
		}
	}},
}
