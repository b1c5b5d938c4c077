package sessionstest

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// LimitedFactory returns a fresh, empty service that enforces limits, and
// arranges its cleanup, as a [Factory] does.
type LimitedFactory func(t *testing.T, limits sessions.Limits) sessions.Service

// RunLimits runs the contract of [sessions.Limits] against the services
// newService returns: an append past a cap fails with [sessions.ErrTooLarge]
// and changes nothing, and the session stays usable.
func RunLimits(t *testing.T, newService LimitedFactory) {
	t.Helper()
	for _, c := range limitCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newService(t, c.limits))
		})
	}
}

var limitCases = []struct {
	name   string
	limits sessions.Limits
	run    func(t *testing.T, svc sessions.Service)
}{
	{"max_events", sessions.Limits{MaxEvents: 3, MaxBytes: -1}, func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		for range 3 {
			appendEvent(t, svc, sess, event(t, "agent", nil, 0))
		}
		checkRefused(t, svc, sess, event(t, "agent", map[string]any{"k": "v", "app:k": "v", "user:k": "v"}, 0))
		if n := len(get(t, svc, sess).GetEvents()); n != 3 {
			t.Errorf("stored %d events, want 3", n)
		}
	}},
	{"max_bytes", sessions.Limits{MaxEvents: -1, MaxBytes: 4096}, func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		big := event(t, "agent", nil, 0)
		big.Content.Parts[0].Text = strings.Repeat("x", 3000)
		appendEvent(t, svc, sess, big)
		bigger := event(t, "agent", map[string]any{"k": "v", "app:k": "v", "user:k": "v"}, 0)
		bigger.Content.Parts[0].Text = strings.Repeat("y", 1500)
		checkRefused(t, svc, sess, bigger)
		// A smaller event still fits: the cap is on bytes, not a lock-out.
		small := event(t, "agent", map[string]any{"k": "small"}, 0)
		appendEvent(t, svc, sess, small)
		got := get(t, svc, sess)
		if len(got.GetEvents()) != 2 || got.GetState().GetFields()["k"].GetStringValue() != "small" {
			t.Errorf("stored %d events and state %v, want 2 and k=small", len(got.GetEvents()), got.GetState())
		}
		var total int
		for _, ev := range got.GetEvents() {
			total += proto.Size(ev)
		}
		if total > 4096 {
			t.Errorf("stored %d bytes of events, over the cap of 4096", total)
		}
	}},
	{"zero_limits_are_the_defaults", sessions.Limits{}, func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		ev := event(t, "agent", nil, 0)
		ev.Content.Parts[0].Text = strings.Repeat("z", sessions.DefaultMaxBytes)
		checkRefused(t, svc, sess, ev)
		appendEvent(t, svc, sess, event(t, "agent", nil, 0))
	}},
}

// checkRefused appends ev, expecting ErrTooLarge with nothing changed: not
// the store's state or events, not the handle, not ev.
func checkRefused(t *testing.T, svc sessions.Service, s *v1.Session, e *v1.Event) {
	t.Helper()
	before := get(t, svc, s)
	handle := proto.Clone(s)
	evBefore := proto.Clone(e)
	err := svc.AppendEvent(t.Context(), s, e)
	if !errors.Is(err, sessions.ErrTooLarge) {
		t.Fatalf("AppendEvent past the limit: %v, want ErrTooLarge", err)
	}
	if !proto.Equal(handle, s) || !proto.Equal(evBefore, e) {
		t.Errorf("a refused append changed the handle or the event")
	}
	after := get(t, svc, s)
	if !proto.Equal(before, after) {
		t.Errorf("a refused append changed the stored session:\nbefore %v\nafter  %v", before, after)
	}
	other := create(t, svc, s.GetAppName(), s.GetUserId(), s.GetId()+"-other", nil)
	if st := other.GetState().GetFields(); st["app:k"] != nil || st["user:k"] != nil {
		t.Errorf("a refused append changed app or user state: %v", other.GetState())
	}
}
