package main

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func num(n float64) *structpb.Value { return structpb.NewNumberValue(n) }
func str(s string) *structpb.Value  { return structpb.NewStringValue(s) }

func delta(kv ...any) *structpb.Struct {
	s := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	for i := 0; i < len(kv); i += 2 {
		v, _ := kv[i+1].(*structpb.Value)
		s.Fields[kv[i].(string)] = v
	}
	return s
}

// deltaEvent is a stored event with a state delta.
func deltaEvent(id, author string, d *structpb.Struct) *v1.Event {
	return &v1.Event{Id: id, Author: author, Actions: &v1.EventActions{StateDelta: d}}
}

func userMsg(id, inv, token string) *v1.Event {
	return &v1.Event{Id: id, Author: "user", InvocationId: inv,
		Content: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Hello " + runMarker(token)}}}}
}

func call(id, inv, callID string, longRunning bool) *v1.Event {
	ev := &v1.Event{Id: id, Author: "soak_agent", InvocationId: inv, Content: &v1.Content{Role: "model",
		Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: callID, Name: toolName}}}}}
	if longRunning {
		ev.LongRunningToolIds = []string{callID}
	}
	return ev
}

func response(id, inv, callID string) *v1.Event {
	return &v1.Event{Id: id, Author: "soak_agent", InvocationId: inv, Content: &v1.Content{Role: "user",
		Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: callID, Name: toolName}}}}}
}

func text(id, inv string) *v1.Event {
	return &v1.Event{Id: id, Author: "soak_agent", InvocationId: inv,
		Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Echo"}}}}
}

func TestFoldSession(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		initial *structpb.Struct
		events  []*v1.Event
		want    folded
	}{
		{"empty", nil, nil, folded{session: map[string]*structpb.Value{}, scoped: map[string]*structpb.Value{}}},
		{"initial then deltas in order", delta("a", num(1), "user:x", num(1), "temp:c", num(1)), []*v1.Event{
			deltaEvent("e1", "user", delta("a", num(2), "b", str("x"))),
			deltaEvent("e2", "user", delta("a", num(3), "app:y", num(5))),
			deltaEvent("e3", "user", delta("user:x", num(4))),
		}, folded{
			session: map[string]*structpb.Value{"a": num(3), "b": str("x")},
			scoped:  map[string]*structpb.Value{"user:x": num(4), "app:y": num(5)},
		}},
		{"null and nil values store null", nil, []*v1.Event{
			deltaEvent("e1", "user", delta("a", num(1))),
			deltaEvent("e2", "user", delta("a", structpb.NewNullValue(), "b", nil)),
		}, folded{
			session: map[string]*structpb.Value{"a": structpb.NewNullValue(), "b": structpb.NewNullValue()},
			scoped:  map[string]*structpb.Value{},
		}},
		{"partial events are not stored", nil, []*v1.Event{
			deltaEvent("e1", "user", delta("a", num(1))),
			{Id: "p", Partial: proto.Bool(true), Actions: &v1.EventActions{StateDelta: delta("a", num(9))}},
		}, folded{session: map[string]*structpb.Value{"a": num(1)}, scoped: map[string]*structpb.Value{}}},
		{"temp keys in stored deltas are reported", nil, []*v1.Event{
			deltaEvent("e1", "user", delta("temp:n", num(1), "n", num(1))),
		}, folded{session: map[string]*structpb.Value{"n": num(1)}, scoped: map[string]*structpb.Value{}, temp: []string{"temp:n"}}},
		{"look-alike prefixes are session keys", nil, []*v1.Event{
			deltaEvent("e1", "user", delta("apps:x", num(1), "User:y", num(2))),
		}, folded{session: map[string]*structpb.Value{"apps:x": num(1), "User:y": num(2)}, scoped: map[string]*structpb.Value{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := foldSession(tt.initial, tt.events)
			if diff := cmp.Diff(tt.want, got, protocmp.Transform(), cmp.AllowUnexported(folded{})); diff != "" {
				t.Errorf("foldSession (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDanglingCalls(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		events []*v1.Event
		want   []string // call ids reported, oldest first
	}{
		{"answered", []*v1.Event{userMsg("u", "i1", "t"), call("c", "i1", "adk-1", false), response("r", "i1", "adk-1"), text("x", "i1")}, nil},
		{"client vanished", []*v1.Event{userMsg("u", "i1", "t"), call("c", "i1", "adk-1", false)}, []string{"adk-1"}},
		{"next turn after a dangling call", []*v1.Event{
			call("c1", "i1", "adk-1", false), userMsg("u2", "i2", "t2"), call("c2", "i2", "adk-2", false), response("r2", "i2", "adk-2"),
		}, []string{"adk-1"}},
		{"long-running calls may stay open", []*v1.Event{call("c", "i1", "adk-1", true)}, nil},
		{"a response before the call does not count", []*v1.Event{response("r", "i1", "adk-1"), call("c", "i1", "adk-1", false)}, []string{"adk-1"}},
		{"parallel calls, one answered", []*v1.Event{
			{Id: "c", InvocationId: "i1", Content: &v1.Content{Parts: []*v1.Part{
				{FunctionCall: &v1.FunctionCall{Id: "adk-1"}}, {FunctionCall: &v1.FunctionCall{Id: "adk-2"}}}}},
			response("r", "i1", "adk-2"),
		}, []string{"adk-1"}},
		{"calls without ids are not matched", []*v1.Event{call("c", "i1", "", false)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, v := range danglingCalls("s", tt.events) {
				if v.kind != vDangling {
					t.Errorf("kind %q", v.kind)
				}
				got = append(got, strings.Fields(v.detail)[1])
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("dangling calls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckEvents(t *testing.T) {
	t.Parallel()
	update := func(id, marker string) *v1.Event {
		return deltaEvent(id, "user", delta(keyUpdateMark, str(marker), keyUpdate, num(1)))
	}
	tests := []struct {
		name   string
		log    sessionLog
		events []*v1.Event
		want   []string // violation kinds, in order
		lone   int
	}{
		{"all present once",
			sessionLog{runs: []*runLog{{token: "s.1", acked: true}}, updates: []*updateLog{{marker: "s.u1", acked: true}},
				events: map[string]string{"a": "s.1"}},
			[]*v1.Event{userMsg("u", "i1", "s.1"), text("a", "i1"), update("p", "s.u1")}, nil, 0},
		{"acknowledged event lost",
			sessionLog{events: map[string]string{"a": "s.1", "b": "s.1"}},
			[]*v1.Event{text("a", "i1")}, []string{vLostEvent}, 0},
		{"event stored twice", sessionLog{}, []*v1.Event{text("a", "i1"), text("a", "i1")}, []string{vDuplicateEvent}, 0},
		{"retried run stored twice, second alone",
			sessionLog{runs: []*runLog{{token: "s.1", acked: true, attempts: 2}}},
			[]*v1.Event{userMsg("u1", "i1", "s.1"), userMsg("u2", "i2", "s.1"), text("a", "i2")}, []string{vDuplicateRun}, 1},
		{"acknowledged run lost", sessionLog{runs: []*runLog{{token: "s.1", acked: true}}}, nil, []string{vLostRun}, 0},
		{"failed run may be absent or present once",
			sessionLog{runs: []*runLog{{token: "s.1"}, {token: "s.2"}}},
			[]*v1.Event{userMsg("u", "i2", "s.2")}, nil, 1},
		{"update lost and update doubled",
			sessionLog{updates: []*updateLog{{marker: "s.u1", acked: true}, {marker: "s.u2"}}},
			[]*v1.Event{update("p1", "s.u2"), update("p2", "s.u2")}, []string{vLostUpdate, vDuplicateUpdate}, 0},
		{"a model text quoting a token is not a user message",
			sessionLog{runs: []*runLog{{token: "s.1", acked: true}}},
			[]*v1.Event{userMsg("u", "i1", "s.1"), {Id: "m", Author: "soak_agent", InvocationId: "i1",
				Content: &v1.Content{Parts: []*v1.Part{{Text: "Echo: Hello " + runMarker("s.1")}}}}}, nil, 0},
		{"dangling call", sessionLog{}, []*v1.Event{userMsg("u", "i1", "s.1"), call("c", "i1", "adk-1", false)}, []string{vDangling}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.log.id = "s"
			vs, lone := checkEvents(&tt.log, tt.events)
			var got []string
			for _, v := range vs {
				got = append(got, v.kind)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s\n%v", diff, vs)
			}
			if lone != tt.lone {
				t.Errorf("lone = %d, want %d", lone, tt.lone)
			}
		})
	}
}

func TestCompareState(t *testing.T) {
	t.Parallel()
	scope := func(complete bool, kv ...any) *scopeState {
		s := &scopeState{values: map[string][]*structpb.Value{}, complete: complete}
		for i := 0; i < len(kv); i += 2 {
			s.values[kv[i].(string)] = kv[i+1].([]*structpb.Value)
		}
		return s
	}
	f := folded{session: map[string]*structpb.Value{"n": num(2)}}
	tests := []struct {
		name      string
		stored    *structpb.Struct
		app, user *scopeState
		want      []string // violation details' first words
	}{
		{"equal", delta("n", num(2), "app:a", num(1), "user:u", num(3)),
			scope(true, "app:a", []*structpb.Value{num(1)}), scope(true, "user:u", []*structpb.Value{num(3)}), nil},
		{"session key differs", delta("n", num(1)), scope(true), scope(true), []string{`key "n" = 1`}},
		{"session key missing", delta(), scope(true), scope(true), []string{`key "n" missing`}},
		{"key in no delta", delta("n", num(2), "x", num(1)), scope(true), scope(true), []string{`key "x" = 1 is in no stored delta`}},
		{"temp key stored", delta("n", num(2), "temp:t", num(1)), scope(true), scope(true), []string{`state key "temp:t"`}},
		{"scoped key written by two sessions may hold either value", delta("n", num(2), "app:a", num(5)),
			scope(true, "app:a", []*structpb.Value{num(4), num(5)}), scope(true), nil},
		{"scoped key differs", delta("n", num(2), "user:u", num(7)),
			scope(true), scope(true, "user:u", []*structpb.Value{num(3)}), []string{`key "user:u" = 7, want 3`}},
		{"scoped key missing", delta("n", num(2)),
			scope(true, "app:a", []*structpb.Value{num(1)}), scope(true), []string{`key "app:a" missing`}},
		{"unknown scoped key tolerated when a session of the scope was unreadable", delta("n", num(2), "user:z", num(1)),
			scope(true), scope(false), nil},
		{"unknown scoped key reported when every session was read", delta("n", num(2), "user:z", num(1)),
			scope(true), scope(true), []string{`key "user:z" = 1 is in no stored delta of its scope`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, v := range compareState("s", tt.stored, f, tt.app, tt.user) {
				got = append(got, v.detail)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("violations %q, want %q", got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("violation %q, want it to start %q", got[i], tt.want[i])
				}
			}
		})
	}
}

func TestCheckCounters(t *testing.T) {
	t.Parallel()
	log := &sessionLog{id: "s", runs: []*runLog{{n: 1, acked: true}, {n: 2, acked: true}, {n: 3}},
		updates: []*updateLog{{m: 1, acked: true}}}
	tests := []struct {
		name   string
		stored *structpb.Struct
		want   int
	}{
		{"at the last acknowledged", delta(keyRun, num(2), keyUpdate, num(1)), 0},
		{"past it, an unacknowledged run was stored", delta(keyRun, num(3), keyUpdate, num(1)), 0},
		{"behind", delta(keyRun, num(1), keyUpdate, num(1)), 1},
		{"absent", delta(), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := checkCounters(log, tt.stored); len(got) != tt.want {
				t.Errorf("checkCounters = %v, want %d violations", got, tt.want)
			}
		})
	}
}

func TestCheckAll(t *testing.T) {
	t.Parallel()
	mk := func(id, user string) *sessionLog {
		return &sessionLog{app: "soak", user: user, id: id, initial: initialState(id), events: map[string]string{}}
	}
	// s1 and s2 belong to user u; s2 wrote a user key that s1 reads.
	s1, s2 := mk("s1", "u"), mk("s2", "u")
	s1.created, s2.created = true, true
	s1.runs = []*runLog{{token: "s1.1", n: 1, acked: true}}
	ev := userMsg("e1", "i1", "s1.1")
	ev.Actions = &v1.EventActions{StateDelta: s1.runDelta(s1.runs[0])}
	delete(ev.Actions.StateDelta.Fields, "temp:n")
	merged := delta("created", str("s1"), keyRun, num(1), keyToken, str("s1.1"), "user:n.s1", num(1),
		"user:created.s1", structpb.NewBoolValue(true), "user:created.s2", structpb.NewBoolValue(true))
	whole := []stored{
		{log: s1, session: &v1.Session{Id: "s1", State: merged, Events: []*v1.Event{ev, text("a", "i1")}}},
		{log: s2, session: &v1.Session{Id: "s2", State: delta("created", str("s2"), "user:n.s1", num(1),
			"user:created.s1", structpb.NewBoolValue(true), "user:created.s2", structpb.NewBoolValue(true))}},
	}
	if vs, lone := checkAll(whole); len(vs) != 0 || lone != 0 {
		t.Fatalf("whole sessions: %v, %d lone", vs, lone)
	}

	lost, never := mk("s3", "v"), mk("s4", "v")
	lost.created = true
	got, _ := checkAll([]stored{{log: lost}, {log: never}, {log: mk("s5", "v"), err: errors.New("INTERNAL")}})
	var kinds []string
	for _, v := range got {
		kinds = append(kinds, v.kind)
	}
	if diff := cmp.Diff([]string{vLostSession, vUnreadable}, kinds); diff != "" {
		t.Errorf("missing sessions (-want +got):\n%s", diff)
	}
}

func TestParseGoroutineTotal(t *testing.T) {
	t.Parallel()
	if n, err := parseGoroutineTotal("goroutine profile: total 42\n3 @ 0x1\n"); err != nil || n != 42 {
		t.Errorf("parseGoroutineTotal = %d, %v; want 42", n, err)
	}
	for _, bad := range []string{"", "heap profile: 1\n", "goroutine profile: total many\n"} {
		if _, err := parseGoroutineTotal(bad); err == nil {
			t.Errorf("parseGoroutineTotal(%q): want an error", bad)
		}
	}
}

func TestFlagErrors(t *testing.T) {
	t.Parallel()
	req := []string{"--fake-url", "http://f", "--debug-url", "http://d", "--server-pid", "1",
		"--redis-conf", "c", "--redis-pidfile", "p", "--redis-addr", "a"}
	if _, err := parseFlags(req, io.Discard); err != nil {
		t.Fatalf("required flags: %v", err)
	}
	for _, args := range [][]string{
		{},
		{"--fake-url", "http://f"},
		append([]string{"--workers", "0"}, req...),
		append([]string{"--duration", "0s"}, req...),
		append([]string{"--retries", "-1"}, req...),
		append([]string{"--redis-kill-every", "-1s"}, req...),
		append([]string{"extra"}, req...),
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v: want an error", args)
		}
	}
	if o, err := parseFlags([]string{"--write-app", "dir"}, io.Discard); err != nil || o.writeApp != "dir" {
		t.Errorf("--write-app alone: %v", err)
	}
}

// An app key behind its session's stored delta is one fault of the app's
// state, which every session of the app reads: reported once.
func TestCheckAllReportsAnAppKeyOnce(t *testing.T) {
	t.Parallel()
	var all []stored
	for _, id := range []string{"s1", "s2", "s3"} {
		l := &sessionLog{app: "soak", user: "u-" + id, id: id, initial: delta("created", str(id)), events: map[string]string{}}
		var events []*v1.Event
		if id == "s1" {
			events = []*v1.Event{deltaEvent("e1", "user", delta("app:u.s1", num(1))), deltaEvent("e2", "user", delta("app:u.s1", num(2)))}
		}
		all = append(all, stored{log: l, session: &v1.Session{Id: id, Events: events,
			State: delta("created", str(id), "app:u.s1", num(1))}})
	}
	got, _ := checkAll(all)
	if len(got) != 1 || got[0].kind != vStateMismatch || !strings.Contains(got[0].detail, `"app:u.s1" = 1, want 2`) {
		t.Errorf("violations = %v, want one app key mismatch", got)
	}
}
