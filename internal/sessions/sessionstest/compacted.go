package sessionstest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// step is one event of a scripted history: a turn of an invocation at a
// time, a summary covering a range, or a rewind.
type step struct {
	inv        string
	ts         float64
	summary    bool
	inert      bool
	start, end float64
	rewind     bool
}

func (s step) event(t testing.TB, i int) *v1.Event {
	ev := event(t, "agent", nil, s.ts)
	ev.Id, ev.InvocationId = "e"+string(rune('a'+i)), s.inv
	switch {
	case s.summary:
		ev.Author, ev.Content = "user", nil
		c := &v1.EventCompaction{StartTimestamp: s.start, EndTimestamp: s.end}
		if !s.inert {
			c.CompactedContent = &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "summary"}}}
		}
		ev.Actions = &v1.EventActions{Compaction: c}
	case s.rewind:
		ev.Actions = &v1.EventActions{RewindBeforeInvocationId: "i1"}
	}
	return ev
}

var compactedCases = []contractCase{
	{"S2_get_select_none_reads_state_without_events", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", map[string]any{"k": "v"})
		appendEvent(t, svc, sess, event(t, "agent", nil, 1))
		got, err := svc.Get(t.Context(), sessions.GetRequest{AppName: "app", UserID: "u1", SessionID: "s1",
			Select: sessions.SelectNone, NumRecentEvents: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.GetEvents()) != 0 || got.GetState().GetFields()["k"].GetStringValue() != "v" ||
			got.GetLastUpdateTime() != sess.GetLastUpdateTime() {
			t.Errorf("Get(SelectNone) = %d events, state %v, version %v; want none, k=v, %v",
				len(got.GetEvents()), got.GetState(), got.GetLastUpdateTime(), sess.GetLastUpdateTime())
		}
	}},
	{"S2_get_select_compacted_reads_summaries_and_the_uncovered_tail", func(t *testing.T, svc sessions.Service) {
		inv := func(id string, ts float64) step { return step{inv: id, ts: ts} }
		sum := func(ts, start, end float64) step {
			return step{inv: "c", ts: ts, summary: true, start: start, end: end}
		}
		tests := []struct {
			name  string
			steps []step
			want  string // the events selected, by index letter
		}{
			{"no_summary_reads_all", []step{inv("i1", 1), inv("i1", 2), inv("i2", 3)}, "abc"},
			{"summary_keeps_the_last_invocation",
				[]step{inv("i1", 1), inv("i1", 2), inv("i2", 3), inv("i2", 4), sum(5, 1, 4)}, "cde"},
			{"events_after_the_summary",
				[]step{inv("i1", 1), inv("i1", 2), inv("i2", 3), inv("i2", 4), sum(5, 1, 4), inv("i3", 6), inv("i3", 7)}, "efg"},
			{"overlapping_summaries",
				[]step{inv("i1", 1), inv("i2", 2), sum(3, 1, 2), inv("i3", 4), inv("i4", 5), sum(6, 2, 5), inv("i5", 7)},
				"cfg"},
			{"a_rolling_summary_supersedes_the_one_it_started_from",
				[]step{inv("i1", 1), inv("i2", 2), sum(3, 1, 2), inv("i3", 4), sum(5, 1, 4), inv("i4", 6)}, "ef"},
			{"a_gap_stops_the_boundary",
				[]step{inv("i1", 1), inv("i2", 2), inv("i3", 3), sum(4, 2, 3), inv("i4", 5)}, "abcde"},
			{"an_inert_summary_moves_nothing",
				[]step{inv("i1", 1), inv("i2", 2), {inv: "c", ts: 3, summary: true, inert: true, start: 1, end: 2},
					inv("i3", 4)}, "abcd"},
			{"a_rewind_reads_all_for_good",
				[]step{inv("i1", 1), inv("i2", 2), {inv: "i3", ts: 3, rewind: true}, inv("i4", 4), sum(5, 1, 4),
					inv("i5", 6)}, "abcdef"},
		}
		for n, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				id := "s" + string(rune('a'+n))
				sess := create(t, svc, "app", "u1", id, nil)
				for i, s := range tc.steps {
					appendEvent(t, svc, sess, s.event(t, i))
				}
				got, err := svc.Get(t.Context(), sessions.GetRequest{AppName: "app", UserID: "u1", SessionID: id,
					Select: sessions.SelectCompacted, NumRecentEvents: 1, AfterTimestamp: 100})
				if err != nil {
					t.Fatal(err)
				}
				var ids string
				for _, ev := range got.GetEvents() {
					ids += ev.GetId()[1:]
				}
				if diff := cmp.Diff(tc.want, ids); diff != "" {
					t.Errorf("selected events (-want +got):\n%s", diff)
				}
			})
		}
	}},
}
