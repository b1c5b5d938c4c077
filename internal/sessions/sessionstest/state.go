package sessionstest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

var stateCases = []contractCase{
	{"S1_state_scopes_by_prefix", func(t *testing.T, svc sessions.Service) {
		writer := create(t, svc, "app", "u1", "writer", map[string]any{"app:init": "i", "user:init": "i"})
		appendEvent(t, svc, writer, event(t, "agent", map[string]any{"app:a": "A", "user:u": "U", "s": "S"}, 0))
		sameUser := create(t, svc, "app", "u1", "same-user", nil)
		create(t, svc, "app", "u2", "other-user", nil)
		create(t, svc, "other", "u1", "other-app", nil)

		tests := []struct {
			name string
			ref  *v1.Session
			want map[string]any
		}{
			{"writer", writer, map[string]any{"app:init": "i", "user:init": "i", "app:a": "A", "user:u": "U", "s": "S"}},
			{"same_user_new_session", sameUser, map[string]any{"app:init": "i", "user:init": "i", "app:a": "A", "user:u": "U"}},
			{"same_app_other_user", ref("app", "u2", "other-user"), map[string]any{"app:init": "i", "app:a": "A"}},
			{"other_app_same_user", ref("other", "u1", "other-app"), map[string]any{}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				got := get(t, svc, tc.ref).GetState()
				if diff := cmp.Diff(mustStruct(t, tc.want), got, protocmp.Transform()); diff != "" {
					t.Errorf("state (-want +got):\n%s", diff)
				}
			})
		}
		if diff := cmp.Diff(get(t, svc, writer).GetState(), writer.GetState(), protocmp.Transform()); diff != "" {
			t.Errorf("handle state differs from stored (-stored +handle):\n%s", diff)
		}
	}},
	{"S1_temp_state_is_visible_in_the_handle_and_never_stored", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", map[string]any{"temp:init": 1})
		ev := event(t, "agent", map[string]any{"temp:t": "scratch", "k": "kept"}, 0)
		appendEvent(t, svc, sess, ev)

		if got := sess.GetState().AsMap(); got["temp:t"] != "scratch" || got["k"] != "kept" || got["temp:init"] != nil {
			t.Errorf("handle state = %v, want temp:t and k, no temp:init", got)
		}
		wantDelta := mustStruct(t, map[string]any{"k": "kept"})
		if diff := cmp.Diff(wantDelta, ev.GetActions().GetStateDelta(), protocmp.Transform()); diff != "" {
			t.Errorf("appended event delta (-want +got):\n%s", diff)
		}
		stored := get(t, svc, sess)
		if diff := cmp.Diff(mustStruct(t, map[string]any{"k": "kept"}), stored.GetState(), protocmp.Transform()); diff != "" {
			t.Errorf("stored state (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantDelta, stored.GetEvents()[0].GetActions().GetStateDelta(), protocmp.Transform()); diff != "" {
			t.Errorf("stored event delta (-want +got):\n%s", diff)
		}
		list, err := svc.List(t.Context(), "app", "u1")
		if err != nil || len(list) != 1 || list[0].GetState().AsMap()["temp:t"] != nil {
			t.Errorf("List = %v, %v; want one session without temp state", list, err)
		}
		// A delta of temp keys only still appends the event.
		appendEvent(t, svc, sess, event(t, "agent", map[string]any{"temp:only": true}, 0))
		if n := len(get(t, svc, sess).GetEvents()); n != 2 {
			t.Errorf("stored %d events, want 2", n)
		}
	}},
	{"S1_null_value_sets_the_key_to_null", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", map[string]any{"k": 1, "app:a": 1, "user:u": 1})
		delta := &structpb.Struct{Fields: map[string]*structpb.Value{
			"k": structpb.NewNullValue(), "app:a": structpb.NewNullValue(), "user:u": structpb.NewNullValue(),
			"fresh": structpb.NewNullValue(),
		}}
		ev := event(t, "agent", nil, 0)
		ev.Actions = &v1.EventActions{StateDelta: delta}
		appendEvent(t, svc, sess, ev)
		want := mustStruct(t, map[string]any{"k": nil, "app:a": nil, "user:u": nil, "fresh": nil})
		for name, got := range map[string]*structpb.Struct{"handle": sess.GetState(), "stored": get(t, svc, sess).GetState()} {
			if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
				t.Errorf("%s state (-want +got):\n%s", name, diff)
			}
		}
	}},
	{"S1_delta_values_keep_their_json_types", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		delta := map[string]any{
			"str": "x", "num": 1.25, "int": 7, "bool": false, "list": []any{"a", 1, nil},
			"obj": map[string]any{"nested": map[string]any{"deep": []any{true}}}, "empty": "",
			"app:obj": map[string]any{"n": 1}, "user:list": []any{},
		}
		appendEvent(t, svc, sess, event(t, "agent", delta, 0))
		if diff := cmp.Diff(mustStruct(t, delta), get(t, svc, sess).GetState(), protocmp.Transform()); diff != "" {
			t.Errorf("stored state (-want +got):\n%s", diff)
		}
	}},
}
