package contents

import (
	"cmp"
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
	type window struct {
		index      int
		start, end float64
	}
	var windows []window
	for i, e := range events {
		if c := e.GetActions().GetCompaction(); c != nil && c.GetCompactedContent() != nil {
			windows = append(windows, window{i, c.GetStartTimestamp(), c.GetEndTimestamp()})
		}
	}
	active := windows[:0:0]
	for _, w := range windows {
		subsumed := false
		for _, o := range windows {
			if o.index != w.index && o.start <= w.start && o.end >= w.end &&
				(o.start < w.start || o.end > w.end || o.index > w.index) {
				subsumed = true
				break
			}
		}
		if !subsumed {
			active = append(active, w)
		}
	}

	type placed struct {
		at    float64
		index int
		event *v1.Event
	}
	items := make([]placed, 0, len(events))
	for _, w := range active {
		items = append(items, placed{w.end, w.index, summaryEvent(events[w.index], agentName)})
	}
	for i, e := range events {
		if e.GetActions().GetCompaction() != nil {
			continue
		}
		ts := e.GetTimestamp()
		covered := false
		for _, w := range active {
			if w.start <= ts && ts <= w.end {
				covered = true
				break
			}
		}
		if !covered {
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
