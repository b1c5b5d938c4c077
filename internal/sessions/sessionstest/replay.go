package sessionstest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Replay applies the state deltas of events, in order, to a copy of initial
// and returns the result: what a session's state must be after those events.
// Keys keep their prefixes; "temp:" keys are skipped.
func Replay(initial *structpb.Struct, events []*v1.Event) map[string]*structpb.Value {
	out := make(map[string]*structpb.Value)
	for k, v := range initial.GetFields() {
		if !strings.HasPrefix(k, sessions.TempPrefix) {
			out[k] = v
		}
	}
	for _, ev := range events {
		for k, v := range ev.GetActions().GetStateDelta().GetFields() {
			if strings.HasPrefix(k, sessions.TempPrefix) {
				continue
			}
			if v == nil {
				v = structpb.NewNullValue()
			}
			out[k] = v
		}
	}
	return out
}

// CheckReplay fails t unless stored, a session read with all its events,
// holds the state its deltas produce from initial: exactly the same session
// keys, and the same value for every app: and user: key the deltas wrote.
// Shared keys other sessions wrote are not checked; the caller arranges that
// no other session writes the keys this one does.
func CheckReplay(t testing.TB, initial *structpb.Struct, stored *v1.Session) {
	t.Helper()
	want := Replay(initial, stored.GetEvents())
	got := stored.GetState().GetFields()
	for k := range got {
		if !scoped(k) {
			if _, ok := want[k]; !ok {
				want[k] = nil // reported by the diff below
			}
		}
	}
	gotSubset := make(map[string]*structpb.Value, len(want))
	for k := range want {
		gotSubset[k] = got[k]
	}
	if diff := cmp.Diff(want, gotSubset, protocmp.Transform()); diff != "" {
		t.Errorf("session %s: stored state differs from the replay of its %d events (-replay +stored):\n%s",
			stored.GetId(), len(stored.GetEvents()), diff)
	}
}

func scoped(key string) bool {
	return strings.HasPrefix(key, sessions.AppPrefix) || strings.HasPrefix(key, sessions.UserPrefix)
}
