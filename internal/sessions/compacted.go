package sessions

import (
	"slices"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Selection chooses which of a session's events [Service.Get] returns.
type Selection int

const (
	// SelectAll returns the events GetRequest.NumRecentEvents and
	// GetRequest.AfterTimestamp select; the default.
	SelectAll Selection = iota
	// SelectNone returns no events, as ADK's num_recent_events of 0 does.
	SelectNone
	// SelectCompacted returns, in stored order, the events the contents
	// of a new invocation need once compaction summaries cover the older
	// history: every compaction summary but those whose range lies within
	// the range of a later one (a rolling summary supersedes the one it
	// started from), and every event from the session's compaction
	// boundary on. The boundary is the earlier of
	// the first event of the latest invocation (the invocation of the
	// last event that is not a summary) and the first event not covered
	// by a summary: an event is covered when its timestamp lies within
	// the [start, end] range of a summary with compacted content and no
	// branch. The boundary moves forward only when such a summary is
	// appended, over the summaries and the events its range covers, and
	// stops at the first event it does not cover; once the session holds a
	// rewind it stays at the first event. NumRecentEvents and
	// AfterTimestamp do not apply. The events left out are covered by a
	// summary, so contents built from the selection and from the whole
	// history are the same. A store may place the boundary earlier than
	// this, reading more events, never later: sessions stored before the
	// store kept a boundary are read whole.
	SelectCompacted
)

// Mark is what the compacted selection records of an appended event.
type Mark int

const (
	// MarkNone is an ordinary event.
	MarkNone Mark = iota
	// MarkSummary is a compaction summary whose range covers events.
	MarkSummary
	// MarkInert is a compaction summary that covers nothing (no compacted
	// content, or a branch): it is selected but moves no boundary.
	MarkInert
	// MarkRewind is a rewind: the boundary goes back to the first event
	// for good.
	MarkRewind
)

// MarkOf returns ev's mark and, for a summary, the range it covers.
func MarkOf(ev *v1.Event) (m Mark, start, end float64) {
	a := ev.GetActions()
	switch c := a.GetCompaction(); {
	case a.GetRewindBeforeInvocationId() != "":
		return MarkRewind, 0, 0
	case c == nil:
		return MarkNone, 0, 0
	case c.GetCompactedContent() == nil || ev.GetBranch() != "":
		return MarkInert, 0, 0
	default:
		return MarkSummary, c.GetStartTimestamp(), c.GetEndTimestamp()
	}
}

// Boundary tracks where the compacted selection of a session starts, for
// stores that keep their events in memory. The zero value is a session
// without events. It is not safe for concurrent use.
type Boundary struct {
	// Covered is the index of the first event not covered by summaries.
	Covered int
	// Rewound is set once the session holds a rewind.
	Rewound bool
	// InvocationStart is the index of the first event of the latest
	// invocation, and Invocation its id.
	InvocationStart int
	Invocation      string
	// Summaries are the compaction summaries not superseded, in order.
	Summaries []SummaryMark
}

// SummaryMark is a compaction summary at index Index; a summary of kind
// [MarkSummary] covers the range [Start, End].
type SummaryMark struct {
	Index      int
	Kind       Mark
	Start, End float64
}

// supersededBy reports whether a later summary of range [start, end]
// supersedes s: contents drop s, and the events it covers are covered by
// the later one.
func (s SummaryMark) supersededBy(start, end float64) bool {
	return s.Kind == MarkSummary && start <= s.Start && s.End <= end
}

// Appended updates b for ev, just stored at index i of events.
func (b *Boundary) Appended(events []*v1.Event, i int) {
	ev := events[i]
	m, start, end := MarkOf(ev)
	switch m {
	case MarkNone, MarkRewind:
		if id := ev.GetInvocationId(); i == 0 || id != b.Invocation {
			b.Invocation, b.InvocationStart = id, i
		}
		if m == MarkRewind {
			b.Rewound, b.Covered = true, 0
		}
		return
	}
	if m == MarkSummary {
		b.Summaries = slices.DeleteFunc(b.Summaries, func(s SummaryMark) bool { return s.supersededBy(start, end) })
	}
	b.Summaries = append(b.Summaries, SummaryMark{Index: i, Kind: m, Start: start, End: end})
	if m != MarkSummary || b.Rewound {
		return
	}
	for b.Covered < i {
		e := events[b.Covered]
		if e.GetActions().GetCompaction() == nil {
			if ts := e.GetTimestamp(); ts < start || ts > end {
				return
			}
		}
		b.Covered++
	}
}

// Select returns the compacted selection of events, whose boundary is b.
func (b *Boundary) Select(events []*v1.Event) []*v1.Event {
	from := min(b.Covered, b.InvocationStart, len(events))
	out := make([]*v1.Event, 0, len(b.Summaries)+len(events)-from)
	for _, s := range b.Summaries {
		if s.Index >= from {
			break
		}
		out = append(out, events[s.Index])
	}
	return append(out, events[from:]...)
}
