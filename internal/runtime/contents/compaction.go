package contents

import (
	"cmp"
	"math"
	"slices"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// applyCompaction replaces the events covered by compaction summaries with
// the summaries, as ADK's _process_compaction_events does:
//
//   - A compaction without compacted content is ignored, and so is one whose
//     range lies within another's (for equal ranges, the later one wins).
//   - Each remaining compaction becomes an event placed at its end
//     timestamp, carrying its compacted content.
//   - Every other compaction event, and every event whose timestamp falls
//     within a remaining range (bounds included), is dropped.
//   - The result is ordered by timestamp, ties kept in event order.
//
// The summary event is attributed to agentName so that the agent reads it as
// its own earlier turn (role "model" when the summary has no role) rather
// than as another agent's words.
func applyCompaction(events []*v1.Event, agentName string) []*v1.Event {
	var windows []window
	for i, e := range events {
		if c := e.GetActions().GetCompaction(); c != nil && c.GetCompactedContent() != nil {
			windows = append(windows, window{i, c.GetStartTimestamp(), c.GetEndTimestamp()})
		}
	}
	active := liveWindows(windows)

	type placed struct {
		at    float64
		index int
		event *v1.Event
	}
	items := make([]placed, 0, len(events))
	for _, w := range active.windows {
		items = append(items, placed{w.end, w.index, summaryEvent(events[w.index], agentName)})
	}
	for i, e := range events {
		if e.GetActions().GetCompaction() != nil {
			continue
		}
		if ts := e.GetTimestamp(); !active.covers(ts) {
			items = append(items, placed{ts, i, e})
		}
	}
	slices.SortFunc(items, func(a, b placed) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	})
	out := make([]*v1.Event, len(items))
	for i, it := range items {
		out[i] = it.event
	}
	return out
}

// window is the range of a compaction event at index.
type window struct {
	index      int
	start, end float64
}

// windowSet is the compactions that stand in for their ranges, by start,
// with the largest end among each prefix.
type windowSet struct {
	windows []window
	maxEnd  []float64
}

// liveWindows returns the windows that no other one subsumes: a window
// lies within another when that one starts no later and ends no earlier,
// the later event winning between equal ranges. Sorted by start, then by
// end and index descending, a window is subsumed exactly when an earlier
// one in that order ends at or after it, so one pass decides (n log n
// rather than ADK's pairwise check, with the same answer).
func liveWindows(windows []window) windowSet {
	order := slices.Clone(windows)
	slices.SortFunc(order, func(a, b window) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		if c := cmp.Compare(b.end, a.end); c != 0 {
			return c
		}
		return cmp.Compare(b.index, a.index)
	})
	var set windowSet
	top := math.Inf(-1) // the largest end so far
	for _, w := range order {
		if w.end <= top {
			continue
		}
		top = w.end
		set.windows = append(set.windows, w)
		set.maxEnd = append(set.maxEnd, top)
	}
	return set
}

// covers reports whether ts falls within one of the windows, bounds
// included.
func (s windowSet) covers(ts float64) bool {
	n, _ := slices.BinarySearchFunc(s.windows, ts, func(w window, ts float64) int {
		if w.start <= ts {
			return -1
		}
		return 1
	})
	return n > 0 && s.maxEnd[n-1] >= ts
}

// summaryEvent is the event that stands in for a compaction's range.
func summaryEvent(e *v1.Event, agentName string) *v1.Event {
	c := e.GetActions().GetCompaction()
	content := c.GetCompactedContent()
	if content.GetRole() == "" {
		content = &v1.Content{Role: "model", Parts: content.GetParts()}
	}
	return &v1.Event{
		Timestamp:    c.GetEndTimestamp(),
		Author:       agentName,
		Content:      content,
		Branch:       e.GetBranch(),
		InvocationId: e.GetInvocationId(),
		Actions:      e.GetActions(),
	}
}
