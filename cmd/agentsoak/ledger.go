package main

import (
	"fmt"
	"regexp"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// sessionLog is what the client knows of one session: every write it saw
// acknowledged and every write it attempted. The worker that owns the
// session writes it; the checker reads it once the load has stopped.
//
// A write is acknowledged when agentsvc answered it with success: a Run or
// Connect that ended OK, each non-partial event a Run or Connect streamed
// (the engine stores an event before it yields it, so an event the client
// saw is stored even when the run failed later), a CreateSession or
// UpdateSessionState that returned OK (or a CreateSession retry that found
// the session: ALREADY_EXISTS). agentsvc answers only after Redis has
// answered its write, and Redis runs with appendfsync always, which writes
// and fsyncs the append-only file before it replies: so an acknowledged
// write survives SIGKILL and restart. A write in flight when Redis dies has
// no known outcome: it may or may not be stored, and the checker accepts
// both, but never twice.
type sessionLog struct {
	app, user, id string
	// initial is the state sent to CreateSession.
	initial *structpb.Struct
	// created: CreateSession was acknowledged.
	created bool
	runs    []*runLog
	updates []*updateLog
	// events maps the id of every non-partial event streamed to the
	// client to the token of the run that streamed it.
	events map[string]string
	// invocations counts the runs and connects started, for rotation.
	invocations int
	// replica is the index of the agentsvc replica the worker sends the
	// session's requests to; it moves to the next after a failure.
	replica int
	// avail is what the attempts on the session saw of its availability.
	avail availability
}

// runLog is one invocation (Run or Connect), retries included: every
// attempt carries the same token, request id and state delta.
type runLog struct {
	token    string
	n        int
	kind     opKind
	attempts int
	acked    bool
}

// updateLog is one UpdateSessionState call; it is never retried.
type updateLog struct {
	marker string
	m      int
	acked  bool
}

// State keys the load writes. Every prefixed key names its session, so
// that exactly one session writes it and the fold across sessions is exact.
const (
	keyRun        = "n"   // a run's counter
	keyToken      = "tok" // a run's token
	keyUpdate     = "u"   // an update's counter
	keyUpdateMark = "upd" // an update's marker
	keyTool       = "t"   // set by the client tool's answer
)

// markerRE finds the token in a user message: "[soak <token>]".
var markerRE = regexp.MustCompile(`\[soak ([^\]\s]+)\]`)

// runMarker is the part of a user message naming its run.
func runMarker(token string) string { return "[soak " + token + "]" }

func (s *sessionLog) newRun(kind opKind) *runLog {
	n := len(s.runs) + 1
	r := &runLog{token: fmt.Sprintf("%s.%d", s.id, n), n: n, kind: kind}
	s.runs = append(s.runs, r)
	s.invocations++
	return r
}

func (s *sessionLog) newUpdate() *updateLog {
	m := len(s.updates) + 1
	u := &updateLog{marker: fmt.Sprintf("%s.u%d", s.id, m), m: m}
	s.updates = append(s.updates, u)
	return u
}

// record notes an event the client saw: a non-partial one is stored.
func (s *sessionLog) record(ev *v1.Event, r *runLog) {
	if ev != nil && !ev.GetPartial() && ev.GetId() != "" {
		s.events[ev.GetId()] = r.token
	}
}

// runDelta is the state delta a run carries: its counter in every scope a
// session may write (temp: must never be stored).
func (s *sessionLog) runDelta(r *runLog) *structpb.Struct {
	n := structpb.NewNumberValue(float64(r.n))
	return &structpb.Struct{Fields: map[string]*structpb.Value{
		keyRun:           n,
		keyToken:         structpb.NewStringValue(r.token),
		"user:n." + s.id: n,
		"temp:n":         n,
	}}
}

// updateDelta is the state delta of an update.
func (s *sessionLog) updateDelta(u *updateLog) *structpb.Struct {
	m := structpb.NewNumberValue(float64(u.m))
	return &structpb.Struct{Fields: map[string]*structpb.Value{
		keyUpdate:       m,
		keyUpdateMark:   structpb.NewStringValue(u.marker),
		"app:u." + s.id: m,
		"temp:u":        m,
	}}
}

// initialState is the state a session is created with.
func initialState(id string) *structpb.Struct {
	return &structpb.Struct{Fields: map[string]*structpb.Value{
		"created":            structpb.NewStringValue(id),
		"user:created." + id: structpb.NewBoolValue(true),
		"temp:created":       structpb.NewBoolValue(true),
	}}
}
