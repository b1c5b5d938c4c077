package sessionstest

import (
	"errors"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

var uuid4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

var createCases = []contractCase{
	{"S3_create_with_existing_id_fails_already_exists", func(t *testing.T, svc sessions.Service) {
		create(t, svc, "app", "u1", "s1", map[string]any{"k": "first"})
		_, err := svc.Create(t.Context(), sessions.CreateRequest{
			AppName: "app", UserID: "u1", SessionID: "s1", State: mustStruct(t, map[string]any{"k": "second"}),
		})
		if !errors.Is(err, sessions.ErrAlreadyExists) {
			t.Fatalf("second Create error = %v, want ErrAlreadyExists", err)
		}
		if got := get(t, svc, ref("app", "u1", "s1")).GetState().AsMap()["k"]; got != "first" {
			t.Errorf("state k = %v after the failed Create, want %q", got, "first")
		}
		// Ids are scoped by app and user.
		create(t, svc, "app", "u2", "s1", nil)
		create(t, svc, "other", "u1", "s1", nil)
	}},
	{"S3_generated_ids_are_uuid4", func(t *testing.T, svc sessions.Service) {
		a := create(t, svc, "app", "u1", "", nil)
		b := create(t, svc, "app", "u1", "", nil)
		for _, s := range []string{a.GetId(), b.GetId()} {
			if !uuid4.MatchString(s) {
				t.Errorf("generated id %q is not a uuid4", s)
			}
		}
		if a.GetId() == b.GetId() {
			t.Errorf("two generated ids are equal: %q", a.GetId())
		}
	}},
	{"S3_create_returns_handle_with_merged_state", func(t *testing.T, svc sessions.Service) {
		before := float64(time.Now().UnixMicro()) / 1e6
		sess := create(t, svc, "app", "u1", "s1", map[string]any{
			"k": 1, "app:a": "A", "user:u": true, "temp:t": "dropped", "n": nil,
		})
		after := float64(time.Now().UnixMicro()) / 1e6
		want := mustStruct(t, map[string]any{"k": 1, "app:a": "A", "user:u": true, "n": nil})
		if diff := cmp.Diff(want, sess.GetState(), protocmp.Transform()); diff != "" {
			t.Errorf("Create state (-want +got):\n%s", diff)
		}
		if sess.GetId() != "s1" || sess.GetAppName() != "app" || sess.GetUserId() != "u1" || len(sess.GetEvents()) != 0 {
			t.Errorf("Create returned %v", sess)
		}
		if lut := sess.GetLastUpdateTime(); lut < before-1e-6 || lut > after+1e-6 {
			t.Errorf("LastUpdateTime = %f, want within [%f, %f]", lut, before, after)
		}
		stored := get(t, svc, sess)
		if diff := cmp.Diff(want, stored.GetState(), protocmp.Transform()); diff != "" {
			t.Errorf("stored state (-want +got):\n%s", diff)
		}
		if stored.GetLastUpdateTime() != sess.GetLastUpdateTime() {
			t.Errorf("stored LastUpdateTime = %f, handle has %f", stored.GetLastUpdateTime(), sess.GetLastUpdateTime())
		}
	}},
	{"S3_partial_events_are_never_appended", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		version := sess.GetLastUpdateTime()
		ev := event(t, "agent", map[string]any{"k": "partial"}, 0)
		ev.Partial = proto.Bool(true)
		appendEvent(t, svc, sess, ev)
		if len(sess.GetEvents()) != 0 || sess.GetLastUpdateTime() != version || sess.GetState().AsMap()["k"] != nil {
			t.Errorf("handle changed by a partial event: %v", sess)
		}
		if ev.GetId() != "" || ev.GetTimestamp() != 0 {
			t.Errorf("partial event was stamped: id %q, timestamp %f", ev.GetId(), ev.GetTimestamp())
		}
		stored := get(t, svc, sess)
		if len(stored.GetEvents()) != 0 || stored.GetState().AsMap()["k"] != nil {
			t.Errorf("stored session changed by a partial event: %v", stored)
		}
		appendEvent(t, svc, sess, event(t, "agent", nil, 0)) // the handle is still current
	}},
}
