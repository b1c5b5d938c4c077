package runtime

import (
	"container/list"
	"sync"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// DefaultHistorySessions is the number of sessions whose contents caches a
// [Runner] keeps when its HistorySessions is zero.
const DefaultHistorySessions = 1024

// DefaultHistoryBytes bounds the encoded size of the events a [Runner]
// keeps for sessions read by tail when its HistoryBytes is zero.
const DefaultHistoryBytes = 256 << 20

// histories keeps the contents caches of the sessions used last, so that
// an invocation reads only the events stored since the one before it on
// that session. Each session's caches go when it is the least recently
// used of more than max.
type histories struct {
	mu    sync.Mutex
	max   int
	order list.List // of *sessionHistory, the most recently used first
	byKey map[sessionKey]*list.Element
	// maxBytes bounds bytes, the encoded size of the held events of every
	// session (see [heldEvents]); the least recently used sessions go
	// first when a hold passes it.
	maxBytes, bytes int64
}

type sessionKey struct{ app, user, session string }

// sessionHistory holds one session's caches, one per agent and branch: a
// few, so a list beats a map.
type sessionHistory struct {
	key    sessionKey
	mu     sync.Mutex
	caches []agentHistory
	// scan is where the last look for open function calls stopped.
	scan callScan
	// held is the history as last read, for the next read.
	held heldEvents
	// heldBytes is held's share of the histories' bytes, under their lock.
	heldBytes int64
}

type agentHistory struct {
	agent, branch string
	cache         *contents.Cache
}

func newHistories(max int, maxBytes int64) *histories {
	return &histories{max: max, maxBytes: maxBytes, byKey: make(map[sessionKey]*list.Element)}
}

// session returns the caches of the session key, most recently used now.
func (h *histories) session(key sessionKey) *sessionHistory {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e, ok := h.byKey[key]; ok {
		h.order.MoveToFront(e)
		return e.Value.(*sessionHistory)
	}
	s := &sessionHistory{key: key}
	h.byKey[key] = h.order.PushFront(s)
	for h.order.Len() > h.max {
		h.evictOldest()
	}
	return s
}

// evictOldest drops the least recently used session's caches. The caller
// holds h.mu.
func (h *histories) evictOldest() {
	old := h.order.Remove(h.order.Back()).(*sessionHistory)
	delete(h.byKey, old.key)
	h.bytes -= old.heldBytes
	old.heldBytes = 0
}

// hold keeps events, of encoded size size, as s's history last read, held
// at held, unless a later read holds more already; then it drops the least
// recently used sessions' caches until the held bytes are within bounds,
// and s's held events too when they alone are past them.
func (h *histories) hold(s *sessionHistory, events []*v1.Event, held sessions.Held, size int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := &s.held
	k.mu.Lock()
	if held.Incarnation == k.held.Incarnation && held.Events < k.held.Events {
		k.mu.Unlock()
		return
	}
	k.events, k.held = events, held
	if size > h.maxBytes {
		k.events, k.held, size = nil, sessions.Held{}, 0
	}
	k.mu.Unlock()
	if e, ok := h.byKey[s.key]; !ok || e.Value != s {
		return // evicted meanwhile: its bytes are no longer counted
	}
	h.bytes += size - s.heldBytes
	s.heldBytes = size
	for h.bytes > h.maxBytes && h.order.Len() > 1 && h.order.Back().Value != s {
		h.evictOldest()
	}
}

// kept returns the caches of the session key and the bytes its held
// events count, or nil when none are kept; unlike session, it neither adds
// nor moves one.
func (h *histories) kept(key sessionKey) (*sessionHistory, int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e, ok := h.byKey[key]; ok {
		s := e.Value.(*sessionHistory)
		return s, s.heldBytes
	}
	return nil, 0
}

// cache returns the contents cache of agent on branch.
func (s *sessionHistory) cache(agent, branch string) *contents.Cache {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.caches {
		if h.agent == agent && h.branch == branch {
			return h.cache
		}
	}
	c := new(contents.Cache)
	s.caches = append(s.caches, agentHistory{agent, branch, c})
	return c
}

// HistoryCache returns the cache of the running agent's contents on its
// branch, for [contents.Options]: kept with the session between
// invocations when the runner keeps histories, else the invocation's own.
func (ictx *InvocationContext) HistoryCache() *contents.Cache {
	if h := ictx.inv.history; h != nil && ictx.nodeInput == nil && !ictx.isolated {
		return h.cache(ictx.Agent.Name(), ictx.Branch)
	}
	return new(contents.Cache)
}
