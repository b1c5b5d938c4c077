package sessionstest

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

var appendCases = []contractCase{
	{"append_sets_missing_id_and_timestamp", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		before := float64(time.Now().UnixMicro()) / 1e6
		fresh := event(t, "agent", nil, 0)
		appendEvent(t, svc, sess, fresh)
		after := float64(time.Now().UnixMicro()) / 1e6
		if !uuid4.MatchString(fresh.GetId()) {
			t.Errorf("generated event id %q is not a uuid4", fresh.GetId())
		}
		if ts := fresh.GetTimestamp(); ts < before-1e-6 || ts > after+1e-6 {
			t.Errorf("timestamp = %f, want within [%f, %f]", ts, before, after)
		}
		given := event(t, "agent", nil, 4102444800.5) // 2100-01-01
		given.Id = "my-id"
		appendEvent(t, svc, sess, given)
		if given.GetId() != "my-id" || given.GetTimestamp() != 4102444800.5 {
			t.Errorf("given id/timestamp changed to %q/%f", given.GetId(), given.GetTimestamp())
		}
		stored := get(t, svc, sess).GetEvents()
		if len(stored) != 2 || stored[0].GetId() != fresh.GetId() || stored[0].GetTimestamp() != fresh.GetTimestamp() ||
			stored[1].GetId() != "my-id" || stored[1].GetTimestamp() != 4102444800.5 {
			t.Errorf("stored events = %v", stored)
		}
		if len(sess.GetEvents()) != 2 || sess.GetEvents()[0] != fresh || sess.GetEvents()[1] != given {
			t.Errorf("handle events are not the appended events")
		}
	}},
	{"last_update_time_follows_timestamps_and_strictly_increases", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		created := sess.GetLastUpdateTime()
		later := created + 10
		tests := []struct {
			name string
			ts   float64
			want float64
		}{
			{"later_event_sets_it", later, later},
			{"same_timestamp_bumps_one_microsecond", later, later + 1e-6},
			{"older_timestamp_bumps_one_microsecond", later - 5, later + 2e-6},
			{"newer_again", later + 1, later + 1},
		}
		for _, tc := range tests {
			appendEvent(t, svc, sess, event(t, "agent", nil, tc.ts))
			if got := sess.GetLastUpdateTime(); micros(got) != micros(tc.want) {
				t.Errorf("%s: LastUpdateTime = %f, want %f", tc.name, got, tc.want)
			}
			if stored := get(t, svc, sess).GetLastUpdateTime(); stored != sess.GetLastUpdateTime() {
				t.Errorf("%s: stored LastUpdateTime = %f, handle has %f", tc.name, stored, sess.GetLastUpdateTime())
			}
		}
	}},
	{"stale_handle_fails_and_changes_nothing", func(t *testing.T, svc sessions.Service) {
		first := create(t, svc, "app", "u1", "s1", map[string]any{"k": 0})
		second := get(t, svc, first)
		appendEvent(t, svc, first, event(t, "first", map[string]any{"k": 1}, 0))

		before := proto.Clone(second).(*v1.Session)
		ev := event(t, "second", map[string]any{"k": 2, "temp:t": 1, "app:a": 2}, 0)
		evBefore := proto.Clone(ev)
		err := svc.AppendEvent(t.Context(), second, ev)
		if !errors.Is(err, sessions.ErrStale) {
			t.Fatalf("AppendEvent through a stale handle error = %v, want ErrStale", err)
		}
		if !strings.Contains(err.Error(), "reload") {
			t.Errorf("stale error %q does not tell the caller to reload", err)
		}
		if diff := cmp.Diff(before, second, protocmp.Transform()); diff != "" {
			t.Errorf("stale handle changed (-before +after):\n%s", diff)
		}
		if diff := cmp.Diff(evBefore, ev, protocmp.Transform()); diff != "" {
			t.Errorf("rejected event changed (-before +after):\n%s", diff)
		}
		stored := get(t, svc, first)
		if n := len(stored.GetEvents()); n != 1 {
			t.Errorf("stored %d events, want 1", n)
		}
		if want := mustStruct(t, map[string]any{"k": 1}); !proto.Equal(want, stored.GetState()) {
			t.Errorf("stored state = %v, want %v", stored.GetState(), want)
		}
		// A reloaded handle appends.
		appendEvent(t, svc, stored, ev)
		if got := get(t, svc, first).GetState().AsMap(); got["k"] != 2.0 || got["app:a"] != 2.0 {
			t.Errorf("state after the reloaded append = %v", got)
		}
	}},
	{"append_to_unknown_session_is_not_found", func(t *testing.T, svc sessions.Service) {
		err := svc.AppendEvent(t.Context(), ref("app", "u1", "nope"), event(t, "agent", nil, 0))
		if !errors.Is(err, sessions.ErrNotFound) {
			t.Errorf("error = %v, want ErrNotFound", err)
		}
	}},
	{"stored_data_is_isolated_from_callers", func(t *testing.T, svc sessions.Service) {
		initial := mustStruct(t, map[string]any{"k": map[string]any{"n": 1}})
		sess, err := svc.Create(t.Context(), sessions.CreateRequest{AppName: "app", UserID: "u1", SessionID: "s1", State: initial})
		if err != nil {
			t.Fatal(err)
		}
		initial.Fields["k"].GetStructValue().Fields["n"] = structpb.NewNumberValue(99)
		sess.State.Fields["k"].GetStructValue().Fields["n"] = structpb.NewNumberValue(98)

		ev := event(t, "agent", map[string]any{"d": map[string]any{"n": 1}}, 0)
		appendEvent(t, svc, sess, ev)
		ev.Content.Parts[0].Text = "mutated"
		ev.Actions.StateDelta.Fields["d"].GetStructValue().Fields["n"] = structpb.NewNumberValue(97)
		sess.State.Fields["d"].GetStructValue().Fields["n"] = structpb.NewNumberValue(96)

		// A reader's state is its own; its events are shared and read-only.
		got := get(t, svc, sess)
		got.State.Fields["k"] = structpb.NewStringValue("reader mutation")
		got.Events = append(got.Events[:0], event(t, "intruder", nil, 0))

		again := get(t, svc, sess)
		want := mustStruct(t, map[string]any{"k": map[string]any{"n": 1}, "d": map[string]any{"n": 1}})
		if diff := cmp.Diff(want, again.GetState(), protocmp.Transform()); diff != "" {
			t.Errorf("stored state (-want +got):\n%s", diff)
		}
		if text := again.GetEvents()[0].GetContent().GetParts()[0].GetText(); text != "said by agent" {
			t.Errorf("stored event text = %q", text)
		}
		if n := again.GetEvents()[0].GetActions().GetStateDelta().GetFields()["d"].GetStructValue().GetFields()["n"].GetNumberValue(); n != 1 {
			t.Errorf("stored event delta d.n = %v, want 1", n)
		}
	}},
}

// micros compares times at the stores' resolution, one microsecond.
func micros(seconds float64) int64 {
	return int64(math.Round(seconds * 1e6))
}
