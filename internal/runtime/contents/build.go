// Package contents builds the conversation history of a model request from
// session events, exactly as ADK's contents request processor does
// (_get_contents and _get_current_turn_contents in flows/llm_flows).
//
// The returned contents share messages with the stored events wherever an
// event needs no change; only contents that must differ from the stored ones
// (ids cleared, other agents' turns retold, responses merged) are new. Treat
// the result as read-only.
package contents

import (
	"slices"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Options select how much history [Build] includes.
type Options struct {
	// CurrentTurnOnly keeps only the current turn, as ADK's
	// include_contents="none" does: history starts at the latest visible
	// event from the user or from another agent. Default: the whole history.
	CurrentTurnOnly bool
	// KeepClientIDs leaves engine-made ("adk-") call and response ids in
	// place, sharing stored contents instead of copying them, for a caller
	// that clears the ids itself where the request is observed (the model
	// adapters do, see models.IsClientID). Default: ids are cleared, as ADK
	// does.
	KeepClientIDs bool
	// Cache, when set, carries what one Build read over to the next, so
	// that a build over the same history with events appended reads only
	// the new events. See [Cache]. Default: none; every build reads the
	// whole history.
	Cache *Cache
	// QuoteOtherAgents retells other agents' turns as ADK 2.x does: quoted
	// between markers after a preamble saying quoted text is data, never
	// instructions. Default: ADK 1.x's "For context:" form.
	QuoteOtherAgents bool
}

// Build returns the contents of a model request for the agent agentName
// running on branch, from the session's events in order. It applies, in
// ADK's order: rewinds, the visibility filter (branch, empty and framework
// events), compaction summaries, transcriptions, the retelling of other
// agents' events as user context, the pairing of function responses with
// their calls, and the clearing of engine-made ("adk-") call ids.
//
// Build returns an error matching [ErrNoFunctionCall] when the last event
// answers a call that cannot be found, and one matching
// [ErrMixedFunctionResponses] when it answers calls of different events. It
// never modifies events and is safe for concurrent use (builds sharing a
// [Cache] run one at a time).
func Build(events []*v1.Event, agentName, branch string, opts Options) ([]*v1.Content, error) {
	if opts.CurrentTurnOnly {
		start := currentTurnStart(events, agentName, branch)
		if start < 0 {
			return nil, nil
		}
		events = events[start:]
	}
	if opts.Cache != nil {
		return opts.Cache.build(events, agentName, branch, opts.KeepClientIDs, opts.QuoteOtherAgents)
	}
	return build(events, agentName, branch, opts.KeepClientIDs, opts.QuoteOtherAgents)
}

// currentTurnStart returns the index of the latest visible event written by
// the user or by another agent, or -1.
func currentTurnStart(events []*v1.Event, agentName, branch string) int {
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		author := e.GetAuthor()
		if author != "user" && !isOtherAgent(agentName, author) {
			continue
		}
		if isIncluded(e, scanParts(e.GetContent()), branch) {
			return i
		}
	}
	return -1
}

// isOtherAgent reports whether author is an agent other than agentName.
// With no agent name, nobody counts as another agent.
func isOtherAgent(agentName, author string) bool {
	return agentName != "" && author != agentName && author != "user"
}

func build(events []*v1.Event, agentName, branch string, keepClientIDs, quoted bool) ([]*v1.Content, error) {
	l := newContentList(len(events))
	l.quoted = quoted
	if !l.collectCommon(events, agentName, branch, nil) {
		l.paired.release()
		l = collectGeneral(events, agentName, branch, quoted)
	}
	l.keepClientIDs = keepClientIDs
	return l.finish()
}

// collectCommon adds the events of a common history to l, in a single
// pass: no rewinds, no compaction and no transcriptions. It gives up,
// returning false, when it meets one of those; l is then to be dropped,
// once the table of its pairing is released. With a recorder, it notes
// where each content it adds comes from.
//
// It makes the same choices as [isIncluded], in the order that reads the
// fewest fields: the branches are compared only when both are set, and the
// transcriptions are looked at only for an empty content.
func (l *contentList) collectCommon(events []*v1.Event, agentName, branch string, rec *recorder) bool {
	// The list is kept in locals, and the parts scanned once, as this loop
	// runs over the whole history for every model request.
	list, all := l.contents, l.all
	for i, e := range events {
		if a := e.GetActions(); a != nil && (a.GetRewindBeforeInvocationId() != "" || a.GetCompaction() != nil) {
			return false
		}
		c := e.GetContent()
		if c == nil {
			if e.GetInputTranscription() != nil || e.GetOutputTranscription() != nil {
				return false
			}
			continue
		}
		if branch != "" && !isVisibleOnBranch(branch, e.GetBranch()) {
			continue
		}
		f := scanParts(c)
		if f&hasFramework != 0 ||
			isEmpty(c, f) && e.GetInputTranscription() == nil && e.GetOutputTranscription() == nil {
			continue
		}
		added := c
		if author := e.GetAuthor(); isOtherAgent(agentName, author) {
			var keep bool
			if added, keep = l.retell(author, c); !keep {
				continue
			}
			f = 0
		}
		l.paired.add(list, added, f)
		list = append(list, added)
		all |= f
		if rec != nil {
			rec.add(i, f)
		}
	}
	l.contents, l.all = list, all
	return true
}

// collectGeneral handles any history: it drops rewound events, filters,
// applies compaction, then joins transcriptions as it goes.
func collectGeneral(events []*v1.Event, agentName, branch string, quoted bool) contentList {
	src := dropRewound(events)
	src = filterIncluded(src, branch)
	if slices.ContainsFunc(src, isCompaction) {
		src = applyCompaction(src, agentName)
	}
	l := newContentList(len(src))
	l.quoted = quoted
	var transcripts transcriptBuffer
	for i, e := range src {
		c := e.GetContent()
		f := scanParts(c)
		if c == nil {
			var ready bool
			if c, ready = transcripts.take(src, i); !ready {
				continue
			}
			f = 0
			l.hasNil = l.hasNil || c == nil
		}
		l.addEvent(e.GetAuthor(), c, f, agentName)
	}
	return l
}

func isCompaction(e *v1.Event) bool {
	return e.GetActions().GetCompaction() != nil
}
