package contents

import (
	"slices"
	"sync"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Cache carries what [Build] read from a history over to the next build
// over that history with events appended, which then reads only the new
// events. That is the shape of an invocation's step loop: each model
// request is built from the history of the step before plus the events
// the step added. Builds for another agent or branch, or over events that
// do not start with the events read before, start over.
//
// A Cache keeps the event slices it is given and, for the contents it
// collected, where each came from, so it should live no longer than the
// invocation; one per agent run is the intended use. It relies on what
// [Build] already asks of callers: the events, and the slices holding
// them, are not modified (a history grows by appending). Results are those
// of a build without a Cache. The zero value is ready to use. A Cache is
// safe for concurrent use; builds sharing one run one at a time.
type Cache struct {
	mu                sync.Mutex
	agentName, branch string
	// events are the events read so far, as the last build was given them.
	events []*v1.Event
	// general is set when events need the general path (rewinds,
	// compaction, transcriptions); nothing is collected then.
	general bool
	// log says where each content collected from events comes from.
	log sourceLog
	// all and paired are the collection's state after events.
	all    partFlags
	paired pairing
}

func (c *Cache) build(events []*v1.Event, agentName, branch string, keepClientIDs bool) ([]*v1.Content, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.extends(events, agentName, branch) {
		c.reset(agentName, branch)
	}
	if !c.general {
		if c.log.sources == nil {
			c.log.sources = make([]int32, 0, len(events)+len(events)/4+16)
		}
		l := newContentList(len(events))
		l.contents = c.log.appendContents(l.contents, events)
		l.all = c.all
		l.paired = c.paired
		// A pooled table would not go back to its pool with the Cache; this
		// one has room for a history of tool use, a call every several events.
		l.paired.tableSize = len(events)/8 + 16
		c.log.base = len(c.events)
		if l.collectCommon(events[len(c.events):], agentName, branch, &c.log) {
			c.events = events
			c.all = l.all
			c.paired = l.paired
			l.paired.calls = nil // stays with c
			l.keepClientIDs = keepClientIDs
			return l.finish()
		}
		c.paired = l.paired // for reset to release
		c.reset(agentName, branch)
		c.general = true
	}
	c.events = events
	l := collectGeneral(events, agentName, branch)
	l.keepClientIDs = keepClientIDs
	return l.finish()
}

// extends reports whether a build over events for agentName on branch can
// go on from what c has read.
func (c *Cache) extends(events []*v1.Event, agentName, branch string) bool {
	if agentName != c.agentName || branch != c.branch || len(events) < len(c.events) {
		return false
	}
	read := events[:len(c.events)]
	// The same array holds the same events; another is compared.
	return len(read) == 0 || &read[0] == &c.events[0] || slices.Equal(read, c.events)
}

// reset forgets what c has read.
func (c *Cache) reset(agentName, branch string) {
	c.paired.release()
	c.agentName, c.branch = agentName, branch
	c.events = nil
	c.general = false
	c.log.reset()
	c.all = 0
	c.paired = pairing{}
}

// sourceLog notes where each collected content comes from, so that a later
// build can list the contents again without reading the events' parts.
type sourceLog struct {
	// sources[i] is, for the i-th content, the index of the event whose
	// content it is, or ^j for retold[j].
	sources []int32
	retold  []*v1.Content
	// base is the index in the history of the first event being collected.
	base int
}

// add notes that the content added for events[i] (of those being
// collected) is added: the event's own content own, or a retelling.
func (s *sourceLog) add(i int, own, added *v1.Content) {
	if added == own {
		s.sources = append(s.sources, int32(s.base+i))
		return
	}
	s.sources = append(s.sources, ^int32(len(s.retold)))
	s.retold = append(s.retold, added)
}

// appendContents appends the contents noted, taken from events, to dst.
func (s *sourceLog) appendContents(dst []*v1.Content, events []*v1.Event) []*v1.Content {
	for _, i := range s.sources {
		if i >= 0 {
			dst = append(dst, events[i].GetContent())
		} else {
			dst = append(dst, s.retold[^i])
		}
	}
	return dst
}

func (s *sourceLog) reset() {
	clear(s.retold)
	s.sources, s.retold, s.base = s.sources[:0], s.retold[:0], 0
}
