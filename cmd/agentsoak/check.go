package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Kinds of violation the checker reports.
const (
	vUnreadable      = "session unreadable"
	vLostSession     = "acknowledged session missing"
	vLostEvent       = "acknowledged event missing"
	vDuplicateEvent  = "event stored more than once"
	vLostRun         = "acknowledged user message missing"
	vDuplicateRun    = "user message stored more than once"
	vLostUpdate      = "acknowledged state update missing"
	vDuplicateUpdate = "state update stored more than once"
	vDangling        = "function call without a response"
	vStateMismatch   = "state differs from the fold of the events"
	vCounterBehind   = "state lacks an acknowledged counter"
	vTempStored      = "temp: key stored"
	vList            = "ListSessions failed"
	vServer          = "server"
	vUnavailable     = "unavailable longer than --max-unavailable"
)

// violation is one broken promise, with where it was found.
type violation struct {
	kind    string
	session string
	detail  string
}

func (v violation) String() string {
	if v.session == "" {
		return v.kind + ": " + v.detail
	}
	return fmt.Sprintf("%s: session %s: %s", v.kind, v.session, v.detail)
}

// folded is the state a session's stored history implies, as ADK applies
// state deltas: the create state, then each event's delta in order, each
// key set (a null value stores null), "temp:" keys never stored.
type folded struct {
	// session holds the keys without a prefix.
	session map[string]*structpb.Value
	// scoped holds the "app:" and "user:" keys this session wrote, with
	// the last value it wrote.
	scoped map[string]*structpb.Value
	// temp lists the "temp:" keys found in stored deltas (the store must
	// drop them).
	temp []string
}

// foldSession folds the create state and the events' deltas.
func foldSession(initial *structpb.Struct, events []*v1.Event) folded {
	f := folded{session: map[string]*structpb.Value{}, scoped: map[string]*structpb.Value{}}
	apply := func(delta *structpb.Struct, stored bool) {
		for _, k := range sortedKeys(delta) {
			v := delta.GetFields()[k]
			if v == nil {
				v = structpb.NewNullValue()
			}
			switch {
			case strings.HasPrefix(k, "temp:"):
				if stored {
					f.temp = append(f.temp, k)
				}
			case strings.HasPrefix(k, "app:"), strings.HasPrefix(k, "user:"):
				f.scoped[k] = v
			default:
				f.session[k] = v
			}
		}
	}
	apply(initial, false)
	for _, ev := range events {
		if ev.GetPartial() {
			continue
		}
		apply(ev.GetActions().GetStateDelta(), true)
	}
	return f
}

func sortedKeys(s *structpb.Struct) []string {
	keys := make([]string, 0, len(s.GetFields()))
	for k := range s.GetFields() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// scopeState is what the sessions of one scope (an app, or an app and
// user) wrote to its keys: per key the last value each writing session
// left. complete is false when a session of the scope could not be read,
// so keys nobody readable wrote may still be legitimate.
type scopeState struct {
	values   map[string][]*structpb.Value
	complete bool
	// reported holds the keys found wrong already: every session of the
	// scope reads the same hash, so a wrong key is one fault, reported
	// once.
	reported map[string]bool
}

func newScopeState() *scopeState {
	return &scopeState{values: map[string][]*structpb.Value{}, complete: true}
}

// first reports whether key is found wrong for the first time.
func (s *scopeState) first(key string) bool {
	if s.reported[key] {
		return false
	}
	if s.reported == nil {
		s.reported = map[string]bool{}
	}
	s.reported[key] = true
	return true
}

func (s *scopeState) add(f folded, prefix string) {
	for k, v := range f.scoped {
		if strings.HasPrefix(k, prefix) {
			s.values[k] = append(s.values[k], v)
		}
	}
}

// compareState checks a session's stored (merged) state against its fold
// and the fold of its app and user scopes. A scoped key several sessions
// wrote may hold any of their last values: the order of appends across
// sessions is not known to the client.
func compareState(session string, stored *structpb.Struct, f folded, app, user *scopeState) []violation {
	var out []violation
	bad := func(format string, args ...any) {
		out = append(out, violation{vStateMismatch, session, fmt.Sprintf(format, args...)})
	}
	got := stored.GetFields()
	for _, k := range sortedKeys(&structpb.Struct{Fields: f.session}) {
		want := f.session[k]
		if v, ok := got[k]; !ok {
			bad("key %q missing, want %s", k, show(want))
		} else if !proto.Equal(v, want) {
			bad("key %q = %s, want %s", k, show(v), show(want))
		}
	}
	for _, k := range sortedKeys(stored) {
		v := got[k]
		var scope *scopeState
		switch {
		case strings.HasPrefix(k, "temp:"):
			out = append(out, violation{vTempStored, session, fmt.Sprintf("state key %q", k)})
			continue
		case strings.HasPrefix(k, "app:"):
			scope = app
		case strings.HasPrefix(k, "user:"):
			scope = user
		default:
			if _, ok := f.session[k]; !ok {
				bad("key %q = %s is in no stored delta", k, show(v))
			}
			continue
		}
		cands, ok := scope.values[k]
		if !ok {
			if scope.complete && scope.first(k) {
				bad("key %q = %s is in no stored delta of its scope", k, show(v))
			}
			continue
		}
		if !containsValue(cands, v) && scope.first(k) {
			bad("key %q = %s, want %s", k, show(v), show(cands[0]))
		}
	}
	for _, scope := range []*scopeState{app, user} {
		keys := make([]string, 0, len(scope.values))
		for k := range scope.values {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, ok := got[k]; !ok && scope.first(k) {
				bad("key %q missing, want %s", k, show(scope.values[k][0]))
			}
		}
	}
	return out
}

func containsValue(vs []*structpb.Value, v *structpb.Value) bool {
	for _, c := range vs {
		if proto.Equal(c, v) {
			return true
		}
	}
	return false
}

func show(v *structpb.Value) string {
	b, err := v.MarshalJSON()
	if err != nil {
		return "?"
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

// checkEvents checks a session's stored events against its log: every
// acknowledged event, user message and update present once, nothing stored
// twice, and every function call that is not long-running answered by a
// later function response. It also returns the number of user messages
// whose invocation stored nothing after them (not a violation: a run that
// failed right after storing its message leaves one, as ADK does).
func checkEvents(log *sessionLog, events []*v1.Event) (out []violation, lone int) {
	sid := log.id
	ids := map[string]int{}
	runs := map[string]int{}
	updates := map[string]int{}
	for _, ev := range events {
		ids[ev.GetId()]++
		if tok := userToken(ev); tok != "" {
			runs[tok]++
		}
		if ev.GetAuthor() == "user" && ev.GetContent() == nil {
			if m := ev.GetActions().GetStateDelta().GetFields()[keyUpdateMark].GetStringValue(); m != "" {
				updates[m]++
			}
		}
	}
	for _, id := range sortedCounts(ids) {
		if ids[id] > 1 {
			out = append(out, violation{vDuplicateEvent, sid, fmt.Sprintf("event %s ×%d", id, ids[id])})
		}
	}
	acked := make([]string, 0, len(log.events))
	for id := range log.events {
		acked = append(acked, id)
	}
	sort.Strings(acked)
	for _, id := range acked {
		if ids[id] == 0 {
			out = append(out, violation{vLostEvent, sid, fmt.Sprintf("event %s of run %s", id, log.events[id])})
		}
	}
	for _, r := range log.runs {
		switch n := runs[r.token]; {
		case n > 1:
			out = append(out, violation{vDuplicateRun, sid, fmt.Sprintf("run %s (%s, %d attempts) ×%d", r.token, r.kind, r.attempts, n)})
		case n == 0 && r.acked:
			out = append(out, violation{vLostRun, sid, fmt.Sprintf("run %s (%s)", r.token, r.kind)})
		}
	}
	for _, u := range log.updates {
		switch n := updates[u.marker]; {
		case n > 1:
			out = append(out, violation{vDuplicateUpdate, sid, fmt.Sprintf("update %s ×%d", u.marker, n)})
		case n == 0 && u.acked:
			out = append(out, violation{vLostUpdate, sid, "update " + u.marker})
		}
	}
	out = append(out, danglingCalls(sid, events)...)
	return out, loneMessages(events)
}

// userToken returns the run token of a user message event, or "".
func userToken(ev *v1.Event) string {
	if ev.GetAuthor() != "user" {
		return ""
	}
	for _, p := range ev.GetContent().GetParts() {
		if m := markerRE.FindStringSubmatch(p.GetText()); m != nil {
			return m[1]
		}
	}
	return ""
}

func sortedCounts(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// danglingCalls finds the function calls, not long-running, that no later
// event answers with a function response of the same id: the history the
// next model call would get, which Gemini rejects.
func danglingCalls(sid string, events []*v1.Event) []violation {
	answered := map[string]bool{}
	var out []violation
	// Walk backwards so that "later" is what has been seen.
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		var calls []*v1.FunctionCall
		for _, p := range ev.GetContent().GetParts() {
			if fr := p.GetFunctionResponse(); fr != nil {
				answered[fr.GetId()] = true
			}
			if fc := p.GetFunctionCall(); fc != nil {
				calls = append(calls, fc)
			}
		}
		for _, fc := range calls {
			if fc.GetId() == "" || answered[fc.GetId()] || slices.Contains(ev.GetLongRunningToolIds(), fc.GetId()) {
				continue
			}
			out = append(out, violation{vDangling, sid, fmt.Sprintf("call %s (%s) of invocation %s, event %d of %d",
				fc.GetId(), fc.GetName(), ev.GetInvocationId(), i+1, len(events))})
		}
	}
	// Report oldest first.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// loneMessages counts the user messages after which their invocation
// stored nothing.
func loneMessages(events []*v1.Event) int {
	n := 0
	for i, ev := range events {
		if userToken(ev) == "" {
			continue
		}
		if i+1 == len(events) || events[i+1].GetInvocationId() != ev.GetInvocationId() {
			n++
		}
	}
	return n
}

// checkCounters checks that the stored state holds at least the last
// acknowledged run and update counters of the session (the fold check
// already ties it to the stored events; this ties it to what the client
// was told).
func checkCounters(log *sessionLog, stored *structpb.Struct) []violation {
	var out []violation
	check := func(key string, want int) {
		if want == 0 {
			return
		}
		got, ok := stored.GetFields()[key]
		if !ok || got.GetNumberValue() < float64(want) {
			out = append(out, violation{vCounterBehind, log.id, fmt.Sprintf("%q = %s, acknowledged %d", key, showOpt(got), want)})
		}
	}
	maxRun, maxUpdate := 0, 0
	for _, r := range log.runs {
		if r.acked {
			maxRun = max(maxRun, r.n)
		}
	}
	for _, u := range log.updates {
		if u.acked {
			maxUpdate = max(maxUpdate, u.m)
		}
	}
	check(keyRun, maxRun)
	check(keyUpdate, maxUpdate)
	return out
}

func showOpt(v *structpb.Value) string {
	if v == nil {
		return "absent"
	}
	return show(v)
}

// stored is a session as read back at the end, or why it could not be.
type stored struct {
	log     *sessionLog
	session *v1.Session // nil when not found or unreadable
	err     error       // a read failure other than NOT_FOUND
}

// checkAll checks every session read back, and returns the violations and
// the number of lone user messages.
func checkAll(all []stored) (out []violation, lone int) {
	folds := make([]folded, len(all))
	apps := map[string]*scopeState{}
	users := map[string]*scopeState{}
	scopes := func(s *sessionLog) (*scopeState, *scopeState) {
		uk := s.app + "\x00" + s.user
		if apps[s.app] == nil {
			apps[s.app] = newScopeState()
		}
		if users[uk] == nil {
			users[uk] = newScopeState()
		}
		return apps[s.app], users[uk]
	}
	for i, st := range all {
		app, user := scopes(st.log)
		switch {
		case st.err != nil:
			app.complete, user.complete = false, false
		case st.session != nil:
			folds[i] = foldSession(st.log.initial, st.session.GetEvents())
			app.add(folds[i], "app:")
			user.add(folds[i], "user:")
		}
	}
	for i, st := range all {
		sid := st.log.id
		switch {
		case st.err != nil:
			out = append(out, violation{vUnreadable, sid, st.err.Error()})
			continue
		case st.session == nil:
			if st.log.created || hasAcks(st.log) {
				out = append(out, violation{vLostSession, sid, "GetSession: NOT_FOUND"})
			}
			continue
		}
		app, user := scopes(st.log)
		ev, l := checkEvents(st.log, st.session.GetEvents())
		out = append(out, ev...)
		lone += l
		for _, k := range folds[i].temp {
			out = append(out, violation{vTempStored, sid, fmt.Sprintf("stored delta key %q", k)})
		}
		out = append(out, compareState(sid, st.session.GetState(), folds[i], app, user)...)
		out = append(out, checkCounters(st.log, st.session.GetState())...)
	}
	return out, lone
}

func hasAcks(s *sessionLog) bool {
	if len(s.events) > 0 {
		return true
	}
	for _, r := range s.runs {
		if r.acked {
			return true
		}
	}
	for _, u := range s.updates {
		if u.acked {
			return true
		}
	}
	return false
}
