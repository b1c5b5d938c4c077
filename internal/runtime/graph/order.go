package graph

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// ADK 2.13 runs a workflow's ready nodes as asyncio tasks, and each event a
// node yields waits until the runner has stored it. With nodes that do not
// wait on I/O (function, join and tool nodes as a client writes them) its
// order is therefore fixed, in rounds: every running node emits one event
// per round, in the order the nodes started; a node's successors start
// once it ends and emit their first event two rounds after its last (its
// own round, one in which the workflow handles it, one to start them); a
// node with no event ends the round before it would have emitted. The
// order keeps to these rounds, as measured against ADK 2.13 on random
// graphs; it is ADK's own order whenever each node emits at most one event
// (with more, ADK's asyncio hops can move a successor's first event by a
// place).
//
// Such nodes run at once, concurrently, in the client; their events wait
// here until every node before them in this order has ended, which holds
// back at most one result per running node (already in memory). An agent
// node's order in ADK follows its model's latency, so its events stream as
// they come and take no part in the rounds.

// slot is a run of a node ordered by rounds: a function, join or tool node.
type slot struct {
	key   string
	start int      // the round of its first event
	o     *outcome // nil until the run ended
	// paused is set once its last question was released and the workflow
	// recorded that it waits.
	paused bool
}

// last is the round of the slot's last event (the one before start when it
// has none).
func (s *slot) last() int { return s.start + len(s.o.events) - 1 }

// ordered reports whether runs of n take part in the rounds.
func ordered(n *Node) bool {
	switch n.Kind {
	case Function, Join, ToolNode:
		return true
	}
	return false
}

// rounds releases the events of ordered runs in ADK's order.
type rounds struct {
	slots []*slot // the runs not yet handled, in start order
	byKey map[string]*slot
	round int // the round being released
	next  int // the index in slots of the next run to release in round
}

// add records a run started for the round start.
func (q *rounds) add(key string, start int) {
	s := &slot{key: key, start: start}
	q.slots = append(q.slots, s)
	if q.byKey == nil {
		q.byKey = map[string]*slot{}
	}
	q.byKey[key] = s
}

// ended records the outcome of an ordered run; false when o is not one.
func (q *rounds) ended(o outcome) bool {
	s, ok := q.byKey[o.inflightKey]
	if ok {
		s.o = &o
	}
	return ok
}

// release yields, in order, the events that no unfinished run precedes,
// and hands the runs that ended to r.complete round by round. It returns
// false when the caller stopped reading.
func (r *run) release(yield func(*v1.Event, error) bool) bool {
	q := &r.order
	for len(q.slots) > 0 {
		for ; q.next < len(q.slots); q.next++ {
			s := q.slots[q.next]
			if s.start > q.round {
				break
			}
			if s.o == nil {
				return true // its events, and all later ones, wait for it
			}
			if i := q.round - s.start; i < len(s.o.events) {
				ev := s.o.events[i]
				if i == len(s.o.events)-1 && len(s.o.interrupts) > 0 {
					r.pause(*s.o, ev)
					s.paused = true
				}
				if !yield(ev, nil) {
					return false
				}
			}
		}
		// A run of the next round that emits nothing ends in this one.
		for _, s := range q.slots[q.next:] {
			if s.start == q.round+1 && s.o == nil {
				return true
			}
		}
		var done, left []*slot
		for _, s := range q.slots {
			if s.o != nil && s.last() <= q.round {
				done = append(done, s)
				delete(q.byKey, s.key)
			} else {
				left = append(left, s)
			}
		}
		q.slots, q.next = left, 0
		q.round++
		for _, s := range done {
			r.complete(*s.o, s.paused)
		}
		if len(done) > 0 {
			r.start(q.round + 1)
		}
	}
	return true
}

// flush yields the events of the ordered runs that ended, run by run,
// before the invocation fails: what they did stays recorded, as ADK keeps
// the results of the nodes that finished beside the failing one.
func (r *run) flush(yield func(*v1.Event, error) bool) bool {
	q := &r.order
	for idx, s := range q.slots {
		if s.o == nil {
			continue
		}
		for i, ev := range s.o.events {
			if at := s.start + i; at < q.round || (at == q.round && idx < q.next) {
				continue // released already
			}
			if !yield(ev, nil) {
				return false
			}
		}
	}
	q.slots = nil
	return true
}
