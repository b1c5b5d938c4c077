package runtime

import (
	"container/list"
	"sync"

	"github.com/agentsvc/agentsvc/internal/runtime/contents"
)

// DefaultHistorySessions is the number of sessions whose contents caches a
// [Runner] keeps when its HistorySessions is zero.
const DefaultHistorySessions = 1024

// histories keeps the contents caches of the sessions used last, so that
// an invocation reads only the events stored since the one before it on
// that session. Each session's caches go when it is the least recently
// used of more than max.
type histories struct {
	mu    sync.Mutex
	max   int
	order list.List // of *sessionHistory, the most recently used first
	byKey map[sessionKey]*list.Element
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
}

type agentHistory struct {
	agent, branch string
	cache         *contents.Cache
}

func newHistories(max int) *histories {
	return &histories{max: max, byKey: make(map[sessionKey]*list.Element)}
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
		old := h.order.Remove(h.order.Back()).(*sessionHistory)
		delete(h.byKey, old.key)
	}
	return s
}

// kept returns the caches of the session key, or nil when none are kept;
// unlike session, it neither adds nor moves one.
func (h *histories) kept(key sessionKey) *sessionHistory {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e, ok := h.byKey[key]; ok {
		return e.Value.(*sessionHistory)
	}
	return nil
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
