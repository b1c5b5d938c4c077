// Package tracebuffer keeps the last spans the service made in memory, for
// ADK's web UI: the trace of an event (the attributes of the model or tool
// call span that made it) and the spans of a session's invocations.
//
// Every lookup is keyed by the owner the spans name themselves (app, user
// and session, see [Owner]), never by a session or event id alone: two
// users' sessions of one id, or a trace a caller joined by sending another
// caller's trace context, never answer for each other.
package tracebuffer

import (
	"context"
	"slices"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// The owner attributes the engine sets on every span it makes, as
// internal/runtime names them. They are kept out of [Span.Attributes]:
// ADK's web UI does not show them.
const (
	AttrApp     = "agentsvc.app"
	AttrUser    = "user.id" // OpenTelemetry's and ADK's name
	AttrSession = "agentsvc.session_id"
)

// attrEventID is the event id attribute ADK's tracing sets on the model and
// tool call spans.
const attrEventID = "gcp.vertex.agent.event_id"

// maxOwnersPerEvent bounds the spans one (app, event id) keeps: event ids
// are unique, so more than one owner only comes of a caller reusing one.
const maxOwnersPerEvent = 4

// Owner is whose a span is: the app, user and session its owner
// attributes name. A span without them (a request's span, a store
// client's) is owned by nobody.
type Owner struct {
	App, User, Session string
}

// owned reports whether o names an owner.
func (o Owner) owned() bool { return o.App != "" && o.Session != "" }

// Span is a finished span as the buffer keeps it.
type Span struct {
	Name       string
	Start, End int64 // Unix nanoseconds
	TraceID    trace.TraceID
	SpanID     trace.SpanID
	Parent     trace.SpanID // invalid for a root span
	// Attributes are the span's attributes but the owner's.
	Attributes []attribute.KeyValue
	Owner      Owner
}

// Buffer is an OpenTelemetry span processor that keeps the last max
// finished spans, oldest dropped first. Safe for concurrent use.
type Buffer struct {
	max int

	mu    sync.Mutex
	spans []Span // ring of the last max spans
	next  int    // where the next span goes once the ring is full
	// sessions maps an app's session id to the traces each owner of that
	// id made; events maps an app's event id to the model or tool call
	// spans that made it, one per owner.
	sessions map[appKey][]ownedTrace
	events   map[appKey][]Span
	// eventOrder and sessionOrder bound the indexes as the ring bounds
	// the spans; traces counts the traces sessions indexes.
	eventOrder   []appKey
	sessionOrder []appKey
	traces       int
}

// appKey is an id within an app.
type appKey struct{ app, id string }

// ownedTrace is a trace an owner's spans are in.
type ownedTrace struct {
	user string
	id   trace.TraceID
}

// New returns a buffer of the last max spans.
func New(max int) *Buffer {
	return &Buffer{max: max, sessions: map[appKey][]ownedTrace{}, events: map[appKey][]Span{}}
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
		TraceID: s.SpanContext().TraceID(), SpanID: s.SpanContext().SpanID(), Parent: s.Parent().SpanID()}
	var event string
	attrs := s.Attributes()
	sp.Attributes = make([]attribute.KeyValue, 0, len(attrs))
	for _, kv := range attrs {
		switch kv.Key {
		case AttrApp:
			sp.Owner.App = kv.Value.AsString()
		case AttrUser:
			sp.Owner.User = kv.Value.AsString()
		case AttrSession:
			sp.Owner.Session = kv.Value.AsString()
		default:
			if kv.Key == attrEventID {
				event = kv.Value.AsString()
			}
			sp.Attributes = append(sp.Attributes, kv)
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
	if !sp.Owner.owned() {
		return
	}
	if event != "" && callSpan(sp.Name) {
		b.keepEvent(appKey{sp.Owner.App, event}, sp)
	}
	b.keepTrace(appKey{sp.Owner.App, sp.Owner.Session}, ownedTrace{sp.Owner.User, sp.TraceID})
}

// keepEvent indexes the call span sp of an event; the caller holds b.mu.
func (b *Buffer) keepEvent(k appKey, sp Span) {
	spans := b.events[k]
	if len(spans) == 0 {
		b.eventOrder = append(b.eventOrder, k)
	}
	spans = slices.DeleteFunc(spans, func(s Span) bool { return s.Owner == sp.Owner })
	if len(spans) == maxOwnersPerEvent {
		spans = spans[1:]
	}
	b.events[k] = append(spans, sp)
	for len(b.eventOrder) > b.max {
		delete(b.events, b.eventOrder[0])
		b.eventOrder = b.eventOrder[1:]
	}
}

// keepTrace indexes a trace of a session; the caller holds b.mu. The
// traces indexed, all sessions' together, are at most max, as the spans
// kept: past it, the oldest trace of the session indexed longest ago is
// forgotten, and that session, when it keeps others, goes last in turn.
func (b *Buffer) keepTrace(k appKey, t ownedTrace) {
	traces := b.sessions[k]
	if slices.Contains(traces, t) {
		return
	}
	if len(traces) == 0 {
		b.sessionOrder = append(b.sessionOrder, k)
	}
	b.sessions[k] = append(traces, t)
	b.traces++
	for b.traces > b.max {
		oldest := b.sessionOrder[0]
		b.sessionOrder = b.sessionOrder[1:]
		b.traces--
		if rest := b.sessions[oldest][1:]; len(rest) > 0 {
			b.sessions[oldest] = rest
			b.sessionOrder = append(b.sessionOrder, oldest)
		} else {
			delete(b.sessions, oldest)
		}
	}
}

// callSpan reports whether a span is one ADK's web UI shows for an event:
// a model call or a tool call.
func callSpan(name string) bool {
	return name == "call_llm" || name == "send_data" || strings.HasPrefix(name, "execute_tool") ||
		strings.HasPrefix(name, "generate_content")
}

// Shutdown does nothing.
func (b *Buffer) Shutdown(context.Context) error { return nil }

// ForceFlush does nothing: spans are kept as they end.
func (b *Buffer) ForceFlush(context.Context) error { return nil }

// Event returns the model or tool call span of app that made the event,
// if kept and user's; an empty user stands for every user (an admin, or a
// service without authentication).
func (b *Buffer) Event(app, user, eventID string) (Span, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	spans := b.events[appKey{app, eventID}]
	for i := len(spans) - 1; i >= 0; i-- {
		if user == "" || spans[i].Owner.User == user {
			return spans[i], true
		}
	}
	return Span{}, false
}

// Session returns the kept spans of the traces of the invocations of app's
// session sessionID of user, oldest first; an empty user stands for every
// user (an admin, or a service without authentication).
//
// Of those traces, a span is returned when its owner is the app's and the
// user's (the user's other sessions included, as an agent tool's), and a
// span owned by nobody (the request's) only when no other user's or app's
// span shares its trace: a caller that joins another's trace, by sending
// its trace context, neither sees the other's spans nor shows them its own.
func (b *Buffer) Session(app, user, sessionID string) []Span {
	b.mu.Lock()
	defer b.mu.Unlock()
	traces := map[trace.TraceID]bool{}
	for _, t := range b.sessions[appKey{app, sessionID}] {
		if user == "" || t.user == user {
			traces[t.id] = true
		}
	}
	if len(traces) == 0 {
		return nil
	}
	yours := func(o Owner) bool { return o.App == app && (user == "" || o.User == user) }
	mixed := map[trace.TraceID]bool{}
	for i := range b.spans {
		s := &b.spans[i]
		if traces[s.TraceID] && s.Owner.owned() && !yours(s.Owner) {
			mixed[s.TraceID] = true
		}
	}
	var out []Span
	for i := range b.spans {
		s := b.spans[(b.next+i)%len(b.spans)]
		if !traces[s.TraceID] {
			continue
		}
		if s.Owner.owned() && yours(s.Owner) || !s.Owner.owned() && !mixed[s.TraceID] {
			out = append(out, s)
		}
	}
	return out
}
