package runtime

import (
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

func TestHistoriesKeepTheSessionsUsedLast(t *testing.T) {
	t.Parallel()
	h := newHistories(2, DefaultHistoryBytes)
	a, b, c := sessionKey{"app", "u", "a"}, sessionKey{"app", "u", "b"}, sessionKey{"app", "u", "c"}
	ca := h.session(a).cache("agent", "")
	if h.session(a).cache("agent", "") != ca {
		t.Fatal("a session's cache for one agent and branch is not kept")
	}
	if h.session(a).cache("agent", "branch") == ca || h.session(a).cache("other", "") == ca {
		t.Fatal("another agent or branch shares the cache")
	}
	h.session(b)
	h.session(a) // a is now used after b
	h.session(c) // b goes
	if h.session(a).cache("agent", "") != ca {
		t.Error("the session used last but one lost its cache")
	}
	if _, ok := h.byKey[b]; ok {
		t.Error("the least recently used session is still kept")
	}
	if h.order.Len() != 2 || len(h.byKey) != 2 {
		t.Errorf("%d sessions kept (%d indexed), want 2", h.order.Len(), len(h.byKey))
	}
}

func TestHistoriesBoundTheHeldBytes(t *testing.T) {
	t.Parallel()
	h := newHistories(10, 100)
	events := []*v1.Event{{Id: "e"}}
	key := func(id string) sessionKey { return sessionKey{"app", "u", id} }
	held := func(id string) (int, int64) {
		s, ok := h.byKey[key(id)]
		if !ok {
			return -1, 0
		}
		sh := s.Value.(*sessionHistory)
		return len(sh.held.events), sh.heldBytes
	}
	h.hold(h.session(key("a")), events, sessions.Held{Incarnation: "1", Events: 1}, 40)
	h.hold(h.session(key("b")), events, sessions.Held{Incarnation: "1", Events: 1}, 40)
	if h.bytes != 80 {
		t.Fatalf("held bytes = %d, want 80", h.bytes)
	}
	// An older read of a never replaces a later one.
	h.hold(h.session(key("a")), nil, sessions.Held{Incarnation: "1", Events: 0}, 0)
	if n, size := held("a"); n != 1 || size != 40 {
		t.Fatalf("a holds %d events of %d bytes after an older read, want 1 of 40", n, size)
	}
	// c passes the bound: b, used least recently, goes.
	h.hold(h.session(key("c")), events, sessions.Held{Incarnation: "1", Events: 1}, 50)
	if n, _ := held("b"); n != -1 {
		t.Error("the least recently used session is still kept past the bound")
	}
	if h.bytes != 90 {
		t.Errorf("held bytes = %d, want 90", h.bytes)
	}
	// A session whose history alone passes the bound keeps none of it, and
	// the others stay.
	h.hold(h.session(key("d")), events, sessions.Held{Incarnation: "1", Events: 1}, 101)
	if n, size := held("d"); n != 0 || size != 0 {
		t.Errorf("d holds %d events of %d bytes past the bound, want none", n, size)
	}
	if n, _ := held("a"); n != 1 || h.bytes != 90 {
		t.Errorf("a holds %d events, held bytes = %d; want 1 and 90", n, h.bytes)
	}
	// Evicting by count gives the bytes back.
	small := newHistories(1, 100)
	small.hold(small.session(key("a")), events, sessions.Held{Incarnation: "1", Events: 1}, 60)
	small.session(key("b"))
	if small.bytes != 0 {
		t.Errorf("held bytes after the only holder went = %d, want 0", small.bytes)
	}
}
