package runtime_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

func TestBehaviorC6RewindRestoresStateAndHidesEvents(t *testing.T) {
	t.Parallel()
	cfg := llmagent.Config{OutputKey: "last", AgentCallbacks: runtime.AgentCallbacks{Before: []runtime.BeforeAgentCallback{
		func(c *runtime.CallbackContext) (*v1.Content, error) {
			c.State().Set("user:visits", structpb.NewNumberValue(1))
			return nil, nil
		},
	}}}
	h, m, sid := newHarness(t, cfg, []*v1.LlmResponse{et.Text("one"), et.Text("two"), et.Text("three"), et.Text("after")})
	h.RunText(t, sid, "a")
	second := h.RunText(t, sid, "b")
	h.RunText(t, sid, "c")
	if got := h.Session(t, sid).State.AsMap()["last"]; got != "three" {
		t.Fatalf("state before the rewind: last = %v", got)
	}

	sess, err := h.Runner.Rewind(t.Context(), et.UserID, sid, second[0].InvocationId)
	if err != nil {
		t.Fatal(err)
	}
	st := sess.State.AsMap()
	if st["last"] != "one" || st["user:visits"] != 1.0 {
		t.Errorf("state after the rewind = %v, want last=one and shared keys untouched", st)
	}
	rewind := sess.Events[len(sess.Events)-1]
	if rewind.Author != "user" || rewind.Actions.RewindBeforeInvocationId != second[0].InvocationId {
		t.Errorf("rewind event = %v", rewind)
	}

	h.RunText(t, sid, "d")
	want := []string{"user: a", "model: one", "user: d"}
	if d := cmp.Diff(want, et.Contents(m.Requests()[3].Contents)); d != "" {
		t.Errorf("contents after the rewind (-want +got):\n%s", d)
	}

	_, err = h.Runner.Rewind(t.Context(), et.UserID, sid, "e-unknown")
	var rerr *runtime.Error
	if !errors.As(err, &rerr) || rerr.Code != runtime.CodeNotFound || rerr.Message != "Invocation ID not found: e-unknown" {
		t.Errorf("unknown invocation: err = %v", err)
	}
}
