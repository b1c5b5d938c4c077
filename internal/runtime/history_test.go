package runtime

import "testing"

func TestHistoriesKeepTheSessionsUsedLast(t *testing.T) {
	t.Parallel()
	h := newHistories(2)
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
