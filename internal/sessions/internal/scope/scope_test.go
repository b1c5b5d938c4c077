package scope

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func TestSplitState(t *testing.T) {
	t.Parallel()
	null := structpb.NewNullValue()
	one := structpb.NewNumberValue(1)
	tests := []struct {
		name  string
		state *structpb.Struct
		want  Split
	}{
		{"nil", nil, Split{}},
		{"scopes", &structpb.Struct{Fields: map[string]*structpb.Value{
			"app:a": one, "user:u": one, "s": one, "temp:t": one, "b": one,
		}}, Split{
			App:     []Entry{{"a", one}},
			User:    []Entry{{"u", one}},
			Session: []Entry{{"b", one}, {"s", one}},
			Temp:    []Entry{{"temp:t", one}},
		}},
		{"nil_value_is_null", &structpb.Struct{Fields: map[string]*structpb.Value{"k": nil}}, Split{
			Session: []Entry{{"k", null}},
		}},
		{"look_alikes_are_session_keys", &structpb.Struct{Fields: map[string]*structpb.Value{
			"apps:x": one, "User:x": one, "tempo": one,
		}}, Split{Session: []Entry{{"User:x", one}, {"apps:x", one}, {"tempo", one}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, SplitState(tc.state), protocmp.Transform()); diff != "" {
				t.Errorf("SplitState (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNextVersion(t *testing.T) {
	t.Parallel()
	const stored = 1_700_000_000_000_000
	tests := []struct {
		name string
		ts   float64
		want int64
	}{
		{"later_timestamp", 1_700_000_001.25, 1_700_000_001_250_000},
		{"same_timestamp", 1_700_000_000, stored + 1},
		{"older_timestamp", 1, stored + 1},
		{"sub_microsecond_later_rounds", 1_700_000_000.0000004, stored + 1},
	}
	for _, tc := range tests {
		if got := NextVersion(stored, tc.ts); got != tc.want {
			t.Errorf("%s: NextVersion = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestMicrosRoundTrip(t *testing.T) {
	t.Parallel()
	// Every microsecond converts to seconds and back exactly, well past
	// today; versions depend on it.
	for _, base := range []int64{1_700_000_000_000_000, 4_102_444_800_000_000} {
		for d := range int64(100_000) {
			if v := base + d*7919; Micros(Seconds(v)) != v {
				t.Fatalf("Micros(Seconds(%d)) = %d", v, Micros(Seconds(v)))
			}
		}
	}
}

func TestPrepareAndCommit(t *testing.T) {
	t.Parallel()
	delta, err := structpb.NewStruct(map[string]any{"k": 1, "temp:t": 2, "app:a": 3})
	if err != nil {
		t.Fatal(err)
	}
	ev := &v1.Event{Author: "agent", Actions: &v1.EventActions{StateDelta: delta}}
	now := time.UnixMicro(1_700_000_000_123_456)
	p := Prepare(ev, now)
	if ev.Id != "" || ev.Timestamp != 0 || len(ev.Actions.StateDelta.Fields) != 3 {
		t.Fatalf("Prepare changed the event: %v", ev)
	}
	if p.Stored.Id != p.ID || p.Stored.Timestamp != 1_700_000_000.123456 || len(p.Stored.Actions.StateDelta.Fields) != 2 {
		t.Errorf("stored form = %v", p.Stored)
	}
	sess := &v1.Session{}
	p.Commit(sess, ev, 1_700_000_000_123_456)
	want := &v1.Session{
		State:          &structpb.Struct{Fields: map[string]*structpb.Value{"k": delta.Fields["k"], "temp:t": structpb.NewNumberValue(2), "app:a": delta.Fields["app:a"]}},
		Events:         []*v1.Event{ev},
		LastUpdateTime: 1_700_000_000.123456,
	}
	if diff := cmp.Diff(want, sess, protocmp.Transform()); diff != "" {
		t.Errorf("committed handle (-want +got):\n%s", diff)
	}
	if _, ok := ev.Actions.StateDelta.Fields["temp:t"]; ok || ev.Id != p.ID {
		t.Errorf("committed event = %v", ev)
	}
}
