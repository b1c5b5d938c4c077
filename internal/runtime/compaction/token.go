package compaction

import (
	"unicode/utf8"

	"github.com/google/uuid"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// LatestPromptTokens returns the prompt token count of the latest event
// that reports one in its usage metadata, as ADK's
// _latest_prompt_token_count reads it; ok is false when no event does (the
// caller then estimates, see [EstimateTokens]). A summary event carries
// the summarizer's usage, so right after a summary the count is the
// summarizer's prompt, as in ADK. The stored usage cannot tell a count of
// zero from none, so zero counts as none.
func LatestPromptTokens(events []*v1.Event) (count int, ok bool) {
	for i := len(events) - 1; i >= 0; i-- {
		if n := events[i].GetUsageMetadata().GetPromptTokenCount(); n > 0 {
			return int(n), true
		}
	}
	return 0, false
}

// EstimateTokens estimates the prompt tokens of contents as ADK's
// _estimate_prompt_token_count does: the characters of their text parts
// divided by four; ok is false when they hold no text.
func EstimateTokens(contents []*v1.Content) (count int, ok bool) {
	chars := 0
	for _, c := range contents {
		for _, p := range c.GetParts() {
			chars += utf8.RuneCountInString(p.GetText())
		}
	}
	if chars <= 0 {
		return 0, false
	}
	return chars / 4, true
}

// TokenWindow returns the events a token-threshold summary covers, as ADK's
// _events_to_compact_for_token_threshold selects them, or nil when there
// are none. The candidates are the raw events later than the end of the
// latest summary; the last retain of them stay raw, the split moving
// earlier so that a kept function response keeps its call. The window
// then stops before the first event with a call that has no response yet
// (a pending or long-running call) and before the first unresolved
// confirmation or credential request. When an earlier summary exists, the
// window starts with it as a model event at its start time, so that the
// new summary supersedes it.
func TokenWindow(events []*v1.Event, retain int) []*v1.Event {
	latest := latestSummary(events)
	var end float64
	if latest != nil {
		end = latest.GetActions().GetCompaction().GetEndTimestamp()
	}
	var candidates []*v1.Event
	for _, e := range events {
		if !isSummary(e) && e.GetTimestamp() > end {
			candidates = append(candidates, e)
		}
	}
	if len(candidates) <= retain {
		return nil
	}
	window := candidates
	if retain > 0 {
		window = candidates[:safeSplit(candidates, retain)]
	}
	window = beforePendingCall(window, pendingCalls(events))
	window = beforeOpenRequest(window, resolvedRequests(events))
	if len(window) == 0 {
		return nil
	}
	if latest == nil {
		return window
	}
	c := latest.GetActions().GetCompaction()
	seed := &v1.Event{
		Timestamp:    c.GetStartTimestamp(),
		Author:       "model",
		Content:      c.GetCompactedContent(),
		Branch:       latest.GetBranch(),
		InvocationId: uuid.NewString(),
	}
	return append([]*v1.Event{seed}, window...)
}

// latestSummary returns the latest summary event whose range no other
// summary covers (of two with the same range, the later one counts), as
// ADK's _latest_compaction_event; nil when there is none.
func latestSummary(events []*v1.Event) *v1.Event {
	type span struct {
		at         int
		start, end float64
	}
	var spans []span
	for i, e := range events {
		c := e.GetActions().GetCompaction()
		if c == nil || c.GetCompactedContent() == nil {
			continue
		}
		spans = append(spans, span{i, c.GetStartTimestamp(), c.GetEndTimestamp()})
	}
	var latest *v1.Event
	for _, s := range spans {
		subsumed := false
		for _, o := range spans {
			if o.at != s.at && o.start <= s.start && o.end >= s.end &&
				(o.start < s.start || o.end > s.end || o.at > s.at) {
				subsumed = true
				break
			}
		}
		if !subsumed {
			latest = events[s.at]
		}
	}
	return latest
}

// safeSplit returns the index where the raw tail of candidates starts: at
// most len-retain, and early enough that every function response in the
// tail has its call there too (ADK's _safe_token_compaction_split_index).
func safeSplit(candidates []*v1.Event, retain int) int {
	initial := len(candidates) - retain
	if initial <= 0 {
		return 0
	}
	unmatched := map[string]bool{}
	for i := len(candidates) - 1; i >= 0; i-- {
		for _, id := range responseIDs(candidates[i]) {
			unmatched[id] = true
		}
		for _, id := range callIDs(candidates[i]) {
			delete(unmatched, id)
		}
		if len(unmatched) == 0 && i <= initial {
			return i
		}
	}
	return 0
}

// pendingCalls returns the ids of the calls in events that no response
// answers.
func pendingCalls(events []*v1.Event) map[string]bool {
	pending := map[string]bool{}
	for _, e := range events {
		for _, id := range callIDs(e) {
			pending[id] = true
		}
	}
	for _, e := range events {
		for _, id := range responseIDs(e) {
			delete(pending, id)
		}
	}
	return pending
}

// beforePendingCall cuts window before its first event with a pending call.
func beforePendingCall(window []*v1.Event, pending map[string]bool) []*v1.Event {
	for i, e := range window {
		for _, id := range callIDs(e) {
			if pending[id] {
				return window[:i]
			}
		}
	}
	return window
}

// resolvedRequests returns the ids of the confirmation and credential
// requests that a later function response answers (ADK's
// _resolved_hitl_call_ids).
func resolvedRequests(events []*v1.Event) map[string]bool {
	requested := map[string]int{}
	resolved := map[string]bool{}
	for i, e := range events {
		a := e.GetActions()
		for id := range a.GetRequestedToolConfirmations() {
			if _, seen := requested[id]; !seen {
				requested[id] = i
			}
		}
		for id := range a.GetRequestedAuthConfigs() {
			if _, seen := requested[id]; !seen {
				requested[id] = i
			}
		}
		for _, id := range responseIDs(e) {
			if at, ok := requested[id]; ok && i > at {
				resolved[id] = true
			}
		}
	}
	return resolved
}

// beforeOpenRequest cuts window before its first event that requests a
// confirmation or credential not yet resolved.
func beforeOpenRequest(window []*v1.Event, resolved map[string]bool) []*v1.Event {
	for i, e := range window {
		a := e.GetActions()
		for id := range a.GetRequestedToolConfirmations() {
			if !resolved[id] {
				return window[:i]
			}
		}
		for id := range a.GetRequestedAuthConfigs() {
			if !resolved[id] {
				return window[:i]
			}
		}
	}
	return window
}

func callIDs(e *v1.Event) []string {
	var ids []string
	for _, p := range e.GetContent().GetParts() {
		if id := p.GetFunctionCall().GetId(); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

func responseIDs(e *v1.Event) []string {
	var ids []string
	for _, p := range e.GetContent().GetParts() {
		if id := p.GetFunctionResponse().GetId(); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}
