package contents

import (
	"sort"
	"sync"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Cache carries what [Build] read from a history over to the next build
// over that history, which then reads only the events it has not read: the
// events appended since, after any it had read that are no longer there.
// That is the shape of an invocation's step loop, each model request built
// from the history of the step before plus the events the step added, and
// of a session's invocations one after the other. Builds for another agent
// or branch start over.
//
// Events are recognised as read when they are the same event values, or
// carry the same id, invocation and time (a store that decodes its events
// anew for every read). A Cache keeps the events it read and the contents
// collected from them. It relies on what [Build] already asks of callers:
// events are not modified once stored. Results are those of a build
// without a Cache, and a result stays as it was after later builds. The
// zero value is ready to use. A Cache is safe for concurrent use; builds
// sharing one run one at a time.
type Cache struct {
	mu                sync.Mutex
	agentName, branch string
	quoted            bool // Options.QuoteOtherAgents of the builds
	// events are the events read so far.
	events []*v1.Event
	// general is set when events need the general path (rewinds,
	// compaction, transcriptions); nothing is collected then.
	general bool
	// list holds the contents collected from events; flags[i] and from[i]
	// are the part flags list[i] was added with and the index of the event
	// it comes from.
	list  []*v1.Content
	flags []partFlags
	from  []int32
	// lent is the length of the longest result handed out of list's array:
	// that much of the array is read by callers and is never written again.
	lent int
	// all and paired are the collection's state after events.
	all    partFlags
	paired pairing
}

func (c *Cache) build(events []*v1.Event, agentName, branch string, keepClientIDs, quoted bool) ([]*v1.Content, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if agentName != c.agentName || branch != c.branch || quoted != c.quoted {
		c.reset(agentName, branch)
		c.quoted = quoted
	}
	if read := c.readPrefix(events); read < len(c.events) {
		c.truncate(events, read)
	}
	if !c.general {
		if len(c.events) == 0 {
			// Room for the history and a few steps' events.
			n := len(events) + 16
			c.list, c.flags, c.from = make([]*v1.Content, 0, n), make([]partFlags, 0, n), make([]int32, 0, n)
		}
		l := contentList{contents: c.list, all: c.all, paired: c.paired, quoted: quoted}
		// A call in every fourth event (a question, a call, its response
		// and an answer) fits without growing the table.
		l.paired.tableSize = len(events)/4 + 16
		rec := recorder{flags: c.flags, from: c.from, base: len(c.events)}
		if l.collectCommon(events[len(c.events):], agentName, branch, &rec) {
			c.events = events
			c.list, c.flags, c.from = l.contents, rec.flags, rec.from
			c.all, c.paired = l.all, l.paired
			c.lent = max(c.lent, len(c.list))
			// The result shares list's array; finish copies it before any
			// change, and appends reallocate.
			l = contentList{contents: c.list[:len(c.list):len(c.list)], shared: true, all: c.all,
				keepClientIDs: keepClientIDs, paired: pairing{broken: c.paired.broken}}
			return l.finish()
		}
		c.paired = l.paired // for reset to release
		c.reset(agentName, branch)
		c.general = true
	}
	c.events = events
	l := collectGeneral(events, agentName, branch, quoted)
	l.keepClientIDs = keepClientIDs
	return l.finish()
}

// readPrefix returns how many of the leading events c has read.
func (c *Cache) readPrefix(events []*v1.Event) int {
	n := min(len(events), len(c.events))
	if n > 0 && &events[0] == &c.events[0] {
		return n // the same array holds the same events
	}
	for i, e := range events[:n] {
		if e != c.events[i] && !sameEvent(e, c.events[i]) {
			return i
		}
	}
	return n
}

// sameEvent reports whether a and b are one stored event.
func sameEvent(a, b *v1.Event) bool {
	return a == b || a.GetId() != "" && a.GetId() == b.GetId() && a.GetInvocationId() == b.GetInvocationId() &&
		a.GetTimestamp() == b.GetTimestamp()
}

// truncate forgets the events c read from index read on, keeping the
// events of the history before it.
func (c *Cache) truncate(events []*v1.Event, read int) {
	if c.general || read == 0 {
		c.reset(c.agentName, c.branch)
		return
	}
	c.events = events[:read]
	n := sort.Search(len(c.from), func(i int) bool { return int(c.from[i]) >= read })
	if n < c.lent {
		// Contents past n are read by earlier results: later ones go to a
		// new array.
		list := make([]*v1.Content, n, n+16)
		copy(list, c.list)
		c.list, c.lent = list, 0
	} else {
		clear(c.list[n:])
		c.list = c.list[:n]
	}
	c.flags, c.from = c.flags[:n], c.from[:n]
	c.all = 0
	for _, f := range c.flags {
		c.all |= f
	}
	c.paired.truncate(c.flags, n)
}

// reset forgets what c has read.
func (c *Cache) reset(agentName, branch string) {
	c.paired.release()
	c.agentName, c.branch = agentName, branch
	c.events = nil
	c.general = false
	c.list, c.flags, c.from, c.lent = nil, nil, nil, 0
	c.all = 0
	c.paired = pairing{}
}

// recorder notes, for each content collected, the flags it was added with
// and the index of the event it comes from.
type recorder struct {
	flags []partFlags
	from  []int32
	// base is the index in the history of the first event being collected.
	base int
}

// add notes that the content for events[i] of those being collected was
// added with flags f.
func (r *recorder) add(i int, f partFlags) {
	r.flags = append(r.flags, f)
	r.from = append(r.from, int32(r.base+i))
}
