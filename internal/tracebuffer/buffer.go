// Package tracebuffer keeps the last spans the service made in memory, for
// ADK's web UI: the trace of an event (the attributes of the model or tool
// call span that made it) and the spans of a session's invocations.
package tracebuffer

import (
	"context"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// The span attributes ADK's tracing sets that the buffer indexes.
const (
	attrEventID        = "gcp.vertex.agent.event_id"
	attrSessionID      = "gcp.vertex.agent.session_id"
	attrConversationID = "gen_ai.conversation.id"
)

// Span is a finished span as the buffer keeps it.
type Span struct {
	Name       string
	Start, End int64 // Unix nanoseconds
	TraceID    trace.TraceID
	SpanID     trace.SpanID
	Parent     trace.SpanID // invalid for a root span
	Attributes []attribute.KeyValue
}

// Buffer is an OpenTelemetry span processor that keeps the last max
// finished spans, oldest dropped first. Safe for concurrent use.
type Buffer struct {
	max int

	mu    sync.Mutex
	spans []Span // ring of the last max spans
	next  int    // where the next span goes once the ring is full
	// sessions maps a session id to the traces its invocations made;
	// events maps an event id to the model or tool call span that made it.
	sessions map[string][]trace.TraceID
	events   map[string]Span
	// eventOrder and sessionOrder bound the indexes as the ring bounds
	// the spans.
	eventOrder   []string
	sessionOrder []string
}

// New returns a buffer of the last max spans.
func New(max int) *Buffer {
	return &Buffer{max: max, sessions: map[string][]trace.TraceID{}, events: map[string]Span{}}
}

var _ sdktrace.SpanProcessor = (*Buffer)(nil)

// OnStart does nothing.
func (b *Buffer) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

// OnEnd keeps the span.
func (b *Buffer) OnEnd(s sdktrace.ReadOnlySpan) {
	if !s.SpanContext().IsSampled() {
		return
	}
	sp := Span{Name: s.Name(), Start: s.StartTime().UnixNano(), End: s.EndTime().UnixNano(),
		TraceID: s.SpanContext().TraceID(), SpanID: s.SpanContext().SpanID(), Parent: s.Parent().SpanID(),
		Attributes: s.Attributes()}
	var event, session string
	for _, kv := range sp.Attributes {
		switch kv.Key {
		case attrEventID:
			event = kv.Value.AsString()
		case attrSessionID, attrConversationID:
			if session == "" {
				session = kv.Value.AsString()
			}
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.spans) < b.max {
		b.spans = append(b.spans, sp)
	} else {
		b.spans[b.next] = sp
		b.next = (b.next + 1) % b.max
	}
	if event != "" && callSpan(sp.Name) {
		if _, ok := b.events[event]; !ok {
			b.eventOrder = append(b.eventOrder, event)
		}
		b.events[event] = sp
		for len(b.eventOrder) > b.max {
			delete(b.events, b.eventOrder[0])
			b.eventOrder = b.eventOrder[1:]
		}
	}
	if session != "" {
		ids := b.sessions[session]
		if len(ids) == 0 {
			b.sessionOrder = append(b.sessionOrder, session)
		}
		if !containsTrace(ids, sp.TraceID) {
			b.sessions[session] = append(ids, sp.TraceID)
		}
		for len(b.sessionOrder) > b.max {
			delete(b.sessions, b.sessionOrder[0])
			b.sessionOrder = b.sessionOrder[1:]
		}
	}
}

// callSpan reports whether a span is one ADK's web UI shows for an event:
// a model call or a tool call.
func callSpan(name string) bool {
	return name == "call_llm" || name == "send_data" || strings.HasPrefix(name, "execute_tool") ||
		strings.HasPrefix(name, "generate_content")
}

func containsTrace(ids []trace.TraceID, id trace.TraceID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Shutdown does nothing.
func (b *Buffer) Shutdown(context.Context) error { return nil }

// ForceFlush does nothing: spans are kept as they end.
func (b *Buffer) ForceFlush(context.Context) error { return nil }

// Event returns the model or tool call span that made the event, if kept.
func (b *Buffer) Event(eventID string) (Span, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.events[eventID]
	return s, ok
}

// Session returns the kept spans of the traces of a session's invocations,
// oldest first.
func (b *Buffer) Session(sessionID string) []Span {
	b.mu.Lock()
	defer b.mu.Unlock()
	ids := b.sessions[sessionID]
	if len(ids) == 0 {
		return nil
	}
	var out []Span
	for i := range b.spans {
		s := b.spans[(b.next+i)%len(b.spans)]
		if containsTrace(ids, s.TraceID) {
			out = append(out, s)
		}
	}
	return out
}

// SessionOf returns the session a span belongs to, from its attributes.
func SessionOf(s Span) string {
	for _, kv := range s.Attributes {
		if kv.Key == attrSessionID || kv.Key == attrConversationID {
			return kv.Value.AsString()
		}
	}
	return ""
}
