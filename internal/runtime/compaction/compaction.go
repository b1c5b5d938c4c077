// Package compaction summarises the older invocations of a session, as
// ADK's sliding-window event compaction does (apps/compaction.py and
// LlmEventSummarizer): once enough invocations are new since the last
// summary, a model summarises them, with some overlap, and the summary is
// stored as an event whose actions.compaction covers their time range. The
// contents of later model requests then hold the summary in place of the
// events it covers (see package contents).
package compaction

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
)

// Config is an app's events_compaction_config.
type Config struct {
	// Interval is the number of new invocations since the last summary
	// that triggers the next one (compaction_interval, at least 1).
	Interval int
	// Overlap is the number of invocations before the new ones that the
	// next summary covers again (overlap_size, at least 0).
	Overlap int
	// Model is the name of the model that summarises: the root agent's.
	Model string
	// TokenThreshold, when above zero, summarises at the end of an
	// invocation once the latest prompt token count reaches it
	// (token_threshold), before the sliding window is considered; the
	// window is skipped when this summary is made. Default: off.
	TokenThreshold int
	// Retention is the number of latest raw events a token-threshold
	// summary leaves out (event_retention_size, at least 0).
	Retention int
}

// Window returns the events the next summary covers, in order, or nil when
// fewer than interval invocations are new since the last summary. An
// invocation is new when one of its events is later than the end of the
// latest summary; the window runs from the first event of the invocation
// overlap invocations before the first new one to the last event of the
// last new one, summary events left out.
func Window(events []*v1.Event, interval, overlap int) []*v1.Event {
	var lastEnd float64
	for i := len(events) - 1; i >= 0; i-- {
		if c := events[i].GetActions().GetCompaction(); c != nil && c.GetEndTimestamp() != 0 {
			lastEnd = c.GetEndTimestamp()
			break
		}
	}
	// Invocations in order of their first event, with their latest time.
	var ids []string
	latest := map[string]float64{}
	for _, e := range events {
		id := e.GetInvocationId()
		if id == "" || isSummary(e) {
			continue
		}
		t, seen := latest[id]
		if !seen {
			ids = append(ids, id)
		}
		latest[id] = max(t, e.GetTimestamp())
	}
	firstNew, nNew := -1, 0
	for i, id := range ids {
		if latest[id] > lastEnd {
			if firstNew < 0 {
				firstNew = i
			}
			nNew++
		}
	}
	if nNew == 0 || nNew < interval {
		return nil
	}
	var endID string
	for i := len(ids) - 1; i >= 0; i-- {
		if latest[ids[i]] > lastEnd {
			endID = ids[i]
			break
		}
	}
	startID := ids[max(0, firstNew-overlap)]
	first, last := -1, -1
	for i, e := range events {
		if first < 0 && e.GetInvocationId() == startID {
			first = i
		}
		if e.GetInvocationId() == endID {
			last = i
		}
	}
	if first < 0 || last < first {
		return nil
	}
	var window []*v1.Event
	for _, e := range events[first : last+1] {
		if !isSummary(e) {
			window = append(window, e)
		}
	}
	return window
}

func isSummary(e *v1.Event) bool { return e.GetActions().GetCompaction() != nil }

// promptTemplate is LlmEventSummarizer's default prompt. ADK's source
// writes "\\n" there, so the model gets a backslash and an n, not line
// breaks; so does agentsvc, to send what ADK sends.
const promptTemplate = "The following is a conversation history between a user and an AI agent. " +
	"Please summarize the conversation, focusing on key information and decisions made, " +
	"as well as any unresolved questions or tasks. " +
	"The summary should be concise and capture the essence of the interaction.\\n\\n"

// Prompt returns the summarizer's prompt for events: each text part as
// "<author>: <text>", joined as ADK joins them (with a backslash and an n).
func Prompt(events []*v1.Event) string {
	var b strings.Builder
	b.WriteString(promptTemplate)
	first := true
	for _, e := range events {
		for _, p := range e.GetContent().GetParts() {
			if p.GetText() == "" {
				continue
			}
			if !first {
				b.WriteString(`\n`)
			}
			first = false
			b.WriteString(e.GetAuthor())
			b.WriteString(": ")
			b.WriteString(p.GetText())
		}
	}
	return b.String()
}

// Summarize asks model for a summary of events, one call without
// streaming, and returns the summary event: author "user", a new
// invocation id, the model's usage, and actions.compaction spanning the
// events' timestamps with the summary (role "model") as compacted content.
// The caller sets its id and timestamp. It returns nil when events are
// none or the model answers without content.
func Summarize(ctx context.Context, model models.Model, events []*v1.Event) (*v1.Event, error) {
	return summarize(ctx, model, events, Prompt)
}

func summarize(ctx context.Context, model models.Model, events []*v1.Event, prompt func([]*v1.Event) string) (*v1.Event, error) {
	if len(events) == 0 {
		return nil, nil
	}
	req := &v1.LlmRequest{
		Model:    model.Name(),
		Contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: prompt(events)}}}},
	}
	for resp, err := range model.GenerateContent(ctx, req, false) {
		if err != nil {
			return nil, fmt.Errorf("compaction: summarize %d events: %w", len(events), err)
		}
		if resp.GetContent() == nil {
			continue
		}
		summary := &v1.Content{Role: "model", Parts: resp.GetContent().GetParts()}
		return &v1.Event{
			Author:        "user",
			InvocationId:  uuid.NewString(),
			UsageMetadata: resp.GetUsageMetadata(),
			Actions: &v1.EventActions{Compaction: &v1.EventCompaction{
				StartTimestamp:   events[0].GetTimestamp(),
				EndTimestamp:     events[len(events)-1].GetTimestamp(),
				CompactedContent: summary,
			}},
		}, nil
	}
	return nil, nil
}
