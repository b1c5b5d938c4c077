package graph_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/retry"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// TestBehaviorFunctionNodeEvents: as ADK 2.13 records it, a node's output
// is an event of the workflow at the node's path (the terminal node's
// output stands for the workflow's too), a node with only state changes
// emits them without output, a node returning nothing emits nothing, and
// each node gets its predecessor's output (the first the user's message).
func TestBehaviorFunctionNodeEvents(t *testing.T) {
	t.Parallel()
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("b"), fn("c"), fn("d")},
		Edges: chain(graph.Start, "a", "b", "c", "d")})
	var inputs []*structpb.Value
	c := &client{fns: map[string]nodeFn{
		"a": func(call *graph.Call) (*graph.Result, error) {
			inputs = append(inputs, call.Input)
			return &graph.Result{Output: val(t, map[string]any{"x": 1})}, nil
		},
		"b": func(call *graph.Call) (*graph.Result, error) {
			inputs = append(inputs, call.Input)
			return &graph.Result{StateDelta: et.Struct(`{"seen": true}`)}, nil
		},
		"c": func(call *graph.Call) (*graph.Result, error) {
			inputs = append(inputs, call.Input)
			return &graph.Result{}, nil
		},
		"d": func(call *graph.Call) (*graph.Result, error) {
			inputs = append(inputs, call.Input)
			if !call.State.GetFields()["seen"].GetBoolValue() {
				t.Errorf("d did not see b's state: %v", call.State)
			}
			return output(structpb.NewStringValue("done"))(call)
		},
	}}
	sid := h.NewSession(t, nil)
	events, err := run(t, h, sid, et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	type shape struct {
		Author, Path string
		OutputFor    []string
		Output       any
		Delta        bool
	}
	var got []shape
	for _, ev := range events {
		var out any
		if ev.Output != nil {
			out = ev.Output.AsInterface()
		}
		got = append(got, shape{ev.Author, ev.GetNodeInfo().GetPath(), ev.GetNodeInfo().GetOutputFor(), out, ev.GetActions().GetStateDelta() != nil})
	}
	want := []shape{
		{"wf", "wf@1/a@1", []string{"wf@1/a@1"}, map[string]any{"x": 1.0}, false},
		{"wf", "wf@1/b@1", nil, nil, true},
		{"wf", "wf@1/d@1", []string{"wf@1/d@1", "wf@1"}, "done", false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if got := inputs[0].GetStructValue().GetFields()["parts"].GetListValue().GetValues()[0].GetStructValue().GetFields()["text"].GetStringValue(); got != "go" {
		t.Errorf("a's input = %v", inputs[0])
	}
	if inputs[1].GetStructValue().GetFields()["x"].GetNumberValue() != 1 || inputs[2] != nil || inputs[3] != nil {
		t.Errorf("inputs = %v", inputs)
	}
}

// TestBehaviorRoutes: routed edges as ADK's Graph.get_next_pending_nodes
// and Python's ==: a matching route, a list of routes, True matching 1,
// DEFAULT_ROUTE only when nothing matched, unrouted edges always, and
// nothing when nothing matched; a route set with an output is an event of
// its own.
func TestBehaviorRoutes(t *testing.T) {
	t.Parallel()
	edges := []graph.Edge{{From: graph.Start, To: "router"},
		{From: "router", To: "x", Routes: []*structpb.Value{structpb.NewStringValue("a")}},
		{From: "router", To: "y", Routes: []*structpb.Value{structpb.NewNumberValue(1)}},
		{From: "router", To: "z", Routes: []*structpb.Value{structpb.NewStringValue(graph.DefaultRoute)}},
		{From: "router", To: "always"},
	}
	for _, tc := range []struct {
		route *structpb.Value
		want  []string
	}{
		{structpb.NewStringValue("a"), []string{"x", "always"}},
		{structpb.NewBoolValue(true), []string{"y", "always"}},
		{structpb.NewStringValue("1"), []string{"z", "always"}},
		{val(t, []any{"a", 1}), []string{"x", "y", "always"}},
		{nil, []string{"z", "always"}},
	} {
		h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("router"), fn("x"), fn("y"), fn("z"), fn("always")}, Edges: edges})
		c := &client{fns: map[string]nodeFn{
			"router": func(*graph.Call) (*graph.Result, error) {
				return &graph.Result{Output: structpb.NewStringValue("r"), Route: tc.route}, nil
			},
			"x": output(nil), "y": output(nil), "z": output(nil), "always": output(nil),
		}}
		events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
		if err != nil {
			t.Fatal(err)
		}
		var ran []string
		for _, p := range c.paths()[1:] {
			ran = append(ran, strings.TrimSuffix(strings.TrimPrefix(p, "wf@1/"), "@1"))
		}
		if !sameSet(ran, tc.want) {
			t.Errorf("route %v: ran %v, want %v", tc.route, ran, tc.want)
		}
		if tc.route != nil && (events[0].Output == nil || events[1].GetActions().GetRoute() == nil || events[1].Output != nil) {
			t.Errorf("route %v: router events = %v, %v", tc.route, events[0], events[1])
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, s := range a {
		if !has(b, s) {
			return false
		}
	}
	return true
}

// TestBehaviorJoinFanOut: a fan-out runs each branch on a branch of its
// own ("<node>@1"), and a join outputs its predecessors' outputs by name
// once all arrived, off the branches.
func TestBehaviorJoinFanOut(t *testing.T) {
	t.Parallel()
	join := &graph.Node{Name: "join", Kind: graph.Join}
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("split"), fn("left"), fn("right"), join, fn("after")},
		Edges: []graph.Edge{{From: graph.Start, To: "split"}, {From: "split", To: "left"}, {From: "split", To: "right"},
			{From: "left", To: "join"}, {From: "right", To: "join"}, {From: "join", To: "after"}}})
	var afterInput *structpb.Value
	c := &client{fns: map[string]nodeFn{
		"split": output(structpb.NewStringValue("s")),
		"left":  output(structpb.NewStringValue("L")),
		"right": output(val(t, map[string]any{"n": 10})),
		"after": func(call *graph.Call) (*graph.Result, error) { afterInput = call.Input; return &graph.Result{}, nil },
	}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	branches := map[string]string{}
	for _, ev := range events {
		branches[ev.GetNodeInfo().GetPath()] = ev.Branch
	}
	want := map[string]string{"wf@1/split@1": "", "wf@1/left@1": "left@1", "wf@1/right@1": "right@1", "wf@1/join@1": ""}
	if diff := cmp.Diff(want, branches); diff != "" {
		t.Errorf("branches (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"left": "L", "right": map[string]any{"n": 10.0}}, afterInput.AsInterface()); diff != "" {
		t.Errorf("join output (-want +got):\n%s", diff)
	}
}

// TestRetryTimingInjectedClock: a failing node is called again after the
// waits of ADK's formula (initial × backoff^(attempt-1), capped, ± jitter
// drawn from the injected source), each failed attempt an error event at
// the same path; past max_attempts, or for an exception not listed, the
// invocation fails with the node's error.
func TestRetryTimingInjectedClock(t *testing.T) {
	t.Parallel()
	policy := retry.Config{MaxAttempts: 4, InitialDelay: 2 * time.Second, MaxDelay: 30 * time.Second, BackoffFactor: 3,
		Jitter: 0.5, Exceptions: []string{"TimeoutError", "ConnectError"}}
	for _, tc := range []struct {
		name      string
		fails     int
		class     string
		wantWaits []time.Duration
		wantErr   bool
	}{
		{"recovers", 2, "TimeoutError", nil, false},
		{"exhausted", 10, "ConnectError", nil, true},
		{"not listed", 10, "ValueError", nil, true},
	} {
		clk := &clock{}
		flaky := &graph.Node{Name: "flaky", Kind: graph.Function, Function: "flaky", Retry: &policy}
		// The jitter source returns its upper bound: +jitter × delay.
		h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{flaky}, Edges: chain(graph.Start, "flaky"),
			Sleep: clk.sleep, Uniform: func(lo, hi float64) float64 { return hi }})
		left := tc.fails
		c := &client{fns: map[string]nodeFn{"flaky": func(call *graph.Call) (*graph.Result, error) {
			if left > 0 {
				left--
				return nil, &graph.NodeError{Type: tc.class, Message: "attempt failed"}
			}
			return &graph.Result{Output: structpb.NewStringValue("ok")}, nil
		}}}
		events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
		if (err != nil) != tc.wantErr {
			t.Fatalf("%s: err = %v", tc.name, err)
		}
		// 2s, 6s, 18s, each +50 %: 3s, 9s, 27s; 27 is under the 30s cap.
		want := map[string][]time.Duration{"recovers": {3 * time.Second, 9 * time.Second},
			"exhausted": {3 * time.Second, 9 * time.Second, 27 * time.Second}, "not listed": nil}[tc.name]
		if diff := cmp.Diff(want, clk.waits); diff != "" {
			t.Errorf("%s: waits (-want +got):\n%s", tc.name, diff)
		}
		for _, ev := range events {
			if ev.GetNodeInfo().GetPath() != "wf@1/flaky@1" {
				t.Errorf("%s: event at %q", tc.name, ev.GetNodeInfo().GetPath())
			}
		}
		errorEvents := 0
		for _, ev := range events {
			if ev.ErrorCode == tc.class {
				errorEvents++
			}
		}
		if wantEvents := map[string]int{"recovers": 2, "exhausted": 4, "not listed": 1}[tc.name]; errorEvents != wantEvents {
			t.Errorf("%s: %d error events, want %d", tc.name, errorEvents, wantEvents)
		}
		var rerr *runtime.Error
		if tc.wantErr && (!errors.As(err, &rerr) || rerr.Reason != "NODE_FAILED" || !strings.Contains(rerr.Message, tc.class+": attempt failed")) {
			t.Errorf("%s: err = %#v", tc.name, err)
		}
	}
}

// TestBehaviorRequestInputResume: a node asking the user pauses the
// workflow with ADK's adk_request_input call; the answer, in the same
// invocation, is the node's output without running it again ({"result":
// x} unwrapped); a node that reruns on resume gets the answers instead.
func TestBehaviorRequestInputResume(t *testing.T) {
	t.Parallel()
	gate := fn("gate")
	rerun := &graph.Node{Name: "again", Kind: graph.Function, Function: "again", RerunOnResume: true}
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{gate, rerun, fn("after")}, Edges: chain(graph.Start, "gate", "again", "after")})
	var afterInput *structpb.Value
	c := &client{fns: map[string]nodeFn{
		"gate": func(call *graph.Call) (*graph.Result, error) {
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "tags-1", Message: "Tags?",
				ResponseSchema: val(t, map[string]any{"type": "array"})}}}, nil
		},
		"again": func(call *graph.Call) (*graph.Result, error) {
			if call.ResumeInputs == nil {
				return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "confirm-1"}}}, nil
			}
			return &graph.Result{Output: call.ResumeInputs.GetFields()["confirm-1"]}, nil
		},
		"after": func(call *graph.Call) (*graph.Result, error) { afterInput = call.Input; return &graph.Result{}, nil },
	}}
	sid := h.NewSession(t, nil)
	events, err := run(t, h, sid, et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	first := events[0].InvocationId
	ask := events[0]
	args := ask.GetContent().GetParts()[0].GetFunctionCall().GetArgs().AsMap()
	if diff := cmp.Diff(map[string]any{"interruptId": "tags-1", "message": "Tags?", "payload": nil,
		"response_schema": map[string]any{"type": "array"}}, args); diff != "" || ask.LongRunningToolIds[0] != "tags-1" ||
		ask.GetContent().GetRole() != "model" {
		t.Errorf("request input event args (-want +got):\n%s\n%v", diff, ask)
	}
	events, err = run(t, h, sid, answer(t, "tags-1", map[string]any{"result": []any{"a", "b"}}), c)
	if err != nil {
		t.Fatal(err)
	}
	if has(c.paths()[1:], "wf@1/gate@1") || interrupts(events)[0] != "confirm-1" {
		t.Fatalf("after the first answer: calls %v, events %v", c.paths(), events)
	}
	for _, ev := range events {
		if ev.InvocationId != first {
			t.Errorf("resumed event in invocation %s, want %s", ev.InvocationId, first)
		}
	}
	if in := c.calls[1].Input.AsInterface(); !cmp.Equal(in, []any{"a", "b"}) {
		t.Errorf("again's input = %v", in)
	}
	if _, err := run(t, h, sid, answer(t, "confirm-1", map[string]any{"ok": true}), c); err != nil {
		t.Fatal(err)
	}
	if got := c.paths(); !cmp.Equal(got, []string{"wf@1/gate@1", "wf@1/again@1", "wf@1/again@1", "wf@1/after@1"}) { // a rerun keeps its path
		t.Errorf("calls = %v", got)
	}
	if !cmp.Equal(afterInput.AsInterface(), map[string]any{"ok": true}) {
		t.Errorf("after's input = %v", afterInput)
	}
	if _, err := run(t, h, sid, answer(t, "nope", map[string]any{}), c); err == nil ||
		!strings.Contains(err.Error(), "Function call not found for function response ids: {'nope'}") {
		t.Errorf("unknown answer: err = %v", err)
	}
}

// TestBehaviorTwoPendingInterrupts: two branches ask at once; one answer
// runs nothing more while the join waits, the other completes it.
func TestBehaviorTwoPendingInterrupts(t *testing.T) {
	t.Parallel()
	join := &graph.Node{Name: "join", Kind: graph.Join}
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("ask_a"), fn("ask_b"), join, fn("after")},
		Edges: []graph.Edge{{From: graph.Start, To: "ask_a"}, {From: graph.Start, To: "ask_b"}, {From: "ask_a", To: "join"},
			{From: "ask_b", To: "join"}, {From: "join", To: "after"}}})
	ask := func(id string) nodeFn {
		return func(*graph.Call) (*graph.Result, error) {
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: id}}}, nil
		}
	}
	var joined *structpb.Value
	c := &client{fns: map[string]nodeFn{"ask_a": ask("ia"), "ask_b": ask("ib"),
		"after": func(call *graph.Call) (*graph.Result, error) { joined = call.Input; return &graph.Result{}, nil }}}
	sid := h.NewSession(t, nil)
	events, err := run(t, h, sid, et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	if ids := interrupts(events); !sameSet(ids, []string{"ia", "ib"}) {
		t.Fatalf("interrupts = %v", ids)
	}
	events, err = run(t, h, sid, answer(t, "ib", map[string]any{"answer": "B"}), c)
	if err != nil || len(c.calls) != 2 {
		t.Fatalf("after one answer: err %v, calls %v", err, c.paths())
	}
	for _, ev := range events {
		if ev.GetActions().GetAgentState() == nil {
			t.Errorf("after one answer, event %v", ev)
		}
	}
	if _, err := run(t, h, sid, answer(t, "ia", map[string]any{"answer": "A"}), c); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"ask_a": map[string]any{"answer": "A"}, "ask_b": map[string]any{"answer": "B"}}
	if diff := cmp.Diff(want, joined.AsInterface()); diff != "" {
		t.Errorf("join output (-want +got):\n%s", diff)
	}
}

// TestBehaviorInterruptIDReuse (seed 002 §5 Example 3): a review loop asks
// again with the same interrupt id; each answer resumes the latest ask,
// and the node runs count up along the loop.
func TestBehaviorInterruptIDReuse(t *testing.T) {
	t.Parallel()
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("review"), fn("decide"), fn("publish")},
		Edges: []graph.Edge{{From: graph.Start, To: "review"}, {From: "review", To: "decide"},
			{From: "decide", To: "review", Routes: []*structpb.Value{structpb.NewStringValue("revise")}},
			{From: "decide", To: "publish", Routes: []*structpb.Value{structpb.NewStringValue("publish")}}}})
	c := &client{fns: map[string]nodeFn{
		"review": func(*graph.Call) (*graph.Result, error) {
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "document-review-v1", Message: "Review"}}}, nil
		},
		"decide": func(call *graph.Call) (*graph.Result, error) {
			route := "revise"
			if call.Input.GetStructValue().GetFields()["approved"].GetBoolValue() {
				route = "publish"
			}
			return &graph.Result{Output: call.Input, Route: structpb.NewStringValue(route)}, nil
		},
		"publish": output(structpb.NewStringValue("published")),
	}}
	sid := h.NewSession(t, nil)
	if _, err := run(t, h, sid, et.UserText("draft"), c); err != nil {
		t.Fatal(err)
	}
	for _, approved := range []bool{false, false, true} {
		if _, err := run(t, h, sid, answer(t, "document-review-v1", map[string]any{"approved": approved}), c); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"wf@1/review@1", "wf@1/decide@1", "wf@1/review@2", "wf@1/decide@2", "wf@1/review@3",
		"wf@1/decide@3", "wf@1/publish@1"}
	if diff := cmp.Diff(want[:len(c.paths())], c.paths()); diff != "" || len(c.paths()) != len(want) {
		t.Errorf("calls (-want +got):\n%s\n%v", diff, c.paths())
	}
}

// TestGraphValidation: the workflow is checked when it is built, with ADK
// 2.13's texts (unreachable nodes, duplicate names and edges, edges into
// START or routed from it, DEFAULT_ROUTE in a list, unconditional cycles)
// and ours for what YAML adds (unknown names, routes that are not
// integers).
func TestGraphValidation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  graph.Config
		want string
	}{
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a")}, Edges: chain(graph.Start, "b")}, `unknown node "b"`},
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("b")}, Edges: chain(graph.Start, "a")}, "Graph validation failed. The following nodes are unreachable from START: ['b']"},
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("a")}, Edges: chain(graph.Start, "a")}, "Graph validation failed. Duplicate node names found: ['a']."},
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a")}, Edges: []graph.Edge{{From: graph.Start, To: "a"}, {From: "a", To: graph.Start}}}, "Graph validation failed. START node must not have incoming edges."},
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a")}, Edges: []graph.Edge{{From: graph.Start, To: "a", Routes: []*structpb.Value{structpb.NewStringValue("x")}}}},
			"Graph validation failed. Edges from START must not have routes (edge to a has route x)."},
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("b")}, Edges: append(chain(graph.Start, "a", "b"), graph.Edge{From: "a", To: "b"})},
			"Graph validation failed. Duplicate edge found: from=a, to=b"},
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("b")}, Edges: append(chain(graph.Start, "a"),
			graph.Edge{From: "a", To: "b", Routes: []*structpb.Value{structpb.NewStringValue("x"), structpb.NewStringValue(graph.DefaultRoute)}})},
			"Graph validation failed. DEFAULT_ROUTE cannot be combined with other routes in a list (edge from=a, to=b). Use a separate edge for DEFAULT_ROUTE."},
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("b")}, Edges: append(chain(graph.Start, "a", "b"), graph.Edge{From: "b", To: "a"})},
			"Graph validation failed. Unconditional cycle detected: a -> b -> a. Cycles must include at least one conditional (routed) edge to avoid infinite loops."},
		{graph.Config{Name: "wf", Nodes: []*graph.Node{fn("a"), fn("b")}, Edges: append(chain(graph.Start, "a"),
			graph.Edge{From: "a", To: "b", Routes: []*structpb.Value{structpb.NewNumberValue(1.5)}})}, "must be an integer"},
	} {
		_, err := graph.New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
}

var _ = v1.Event{}

// TestBehaviorAnswerValidation: the answer is checked against the
// question's schema as ADK 2.13 does, with pydantic in lax mode: an object
// keeps its declared properties, absent optional ones null, each coerced
// to its type; a wrong answer fails the invocation with ADK's message,
// pydantic's full text included (the texts are ADK 2.13's, pydantic 2.14).
func TestBehaviorAnswerValidation(t *testing.T) {
	t.Parallel()
	approval := val(t, map[string]any{"type": "object", "required": []any{"approved"},
		"properties": map[string]any{"approved": map[string]any{"type": "boolean"}, "comment": map[string]any{"type": "string", "default": ""}}})
	order := val(t, map[string]any{"type": "object", "required": []any{"count", "sku"},
		"properties": map[string]any{"count": map[string]any{"type": "integer"}, "sku": map[string]any{"type": "string"},
			"price": map[string]any{"type": "number"}, "tags": map[string]any{"type": "array"}}})
	list := val(t, map[string]any{"type": "array", "items": map[string]any{"type": "string"}})
	integer := val(t, map[string]any{"type": "integer"})
	const docs = "\n    For further information visit https://errors.pydantic.dev/2.14/v/"
	for _, tc := range []struct {
		schema  *structpb.Value
		answer  map[string]any
		want    any
		wantErr string
	}{
		{approval, map[string]any{"approved": true}, map[string]any{"approved": true, "comment": nil}, ""},
		{approval, map[string]any{"approved": "yes", "extra": 1}, map[string]any{"approved": true, "comment": nil}, ""},
		{order, map[string]any{"count": "7", "sku": "a", "price": "1.5"}, map[string]any{"count": 7.0, "sku": "a", "price": 1.5, "tags": nil}, ""},
		{approval, map[string]any{"approved": "maybe?"}, nil, "Validation failed for interrupt q: Validation failed for object schema: " +
			"1 validation error for DynamicModel\napproved\n  Input should be a valid boolean, unable to interpret input " +
			"[type=bool_parsing, input_value='maybe?', input_type=str]" + docs + "bool_parsing"},
		{approval, map[string]any{"comment": "ok"}, nil, "Validation failed for interrupt q: Validation failed for object schema: " +
			"1 validation error for DynamicModel\napproved\n  Field required [type=missing, input_value={'comment': 'ok'}, input_type=dict]" +
			docs + "missing"},
		{approval, map[string]any{"approved": nil}, nil, "approved\n  Input should be a valid boolean [type=bool_type, input_value=None, input_type=NoneType]"},
		{order, map[string]any{"count": 1.5, "sku": 5, "tags": "a"}, nil, "Validation failed for interrupt q: Validation failed for object schema: " +
			"3 validation errors for DynamicModel\ncount\n  Input should be a valid integer, got a number with a fractional part " +
			"[type=int_from_float, input_value=1.5, input_type=float]" + docs + "int_from_float\n" +
			"sku\n  Input should be a valid string [type=string_type, input_value=5, input_type=int]" + docs + "string_type\n" +
			"tags\n  Input should be a valid list [type=list_type, input_value='a', input_type=str]" + docs + "list_type"},
		{order, map[string]any{"count": "x", "sku": "a very long string value that goes on and on and on and on"}, nil,
			"count\n  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='x', input_type=str]"},
		{approval, map[string]any{"result": "approve"}, nil, "Validation failed for interrupt q: Validation failed for object schema: " +
			"1 validation error for DynamicModel\n  Input should be a valid dictionary or instance of DynamicModel " +
			"[type=model_type, input_value='approve', input_type=str]" + docs + "model_type"},
		{list, map[string]any{"result": []any{"a"}}, []any{"a"}, ""},
		{list, map[string]any{"tags": []any{"a"}}, nil, "Validation failed for interrupt q: Failed to coerce data to array: " +
			"1 validation error for list[any]\n  Input should be a valid list [type=list_type, input_value={'tags': ['a']}, input_type=dict]" +
			docs + "list_type"},
		{integer, map[string]any{"result": "12"}, 12.0, ""},
		{integer, map[string]any{"result": "abc"}, nil, "Validation failed for interrupt q: Failed to coerce data to integer: " +
			"1 validation error for int\n  Input should be a valid integer, unable to parse string as an integer " +
			"[type=int_parsing, input_value='abc', input_type=str]" + docs + "int_parsing"},
	} {
		h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("ask"), fn("after")}, Edges: chain(graph.Start, "ask", "after")})
		var got *structpb.Value
		c := &client{fns: map[string]nodeFn{
			"ask": func(*graph.Call) (*graph.Result, error) {
				return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "q", ResponseSchema: tc.schema}}}, nil
			},
			"after": func(call *graph.Call) (*graph.Result, error) { got = call.Input; return &graph.Result{}, nil },
		}}
		sid := h.NewSession(t, nil)
		if _, err := run(t, h, sid, et.UserText("go"), c); err != nil {
			t.Fatal(err)
		}
		_, err := run(t, h, sid, answer(t, "q", tc.answer), c)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("answer %v: err = %v, want it to contain %q", tc.answer, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got.AsInterface()); diff != "" {
			t.Errorf("answer %v: node input (-want +got):\n%s", tc.answer, diff)
		}
	}
}

// TestBehaviorNodeAuth (seed 002 §6 Example 3): a node with an auth
// config asks for its credential first (adk_request_credential, id
// "wf_auth:<path>"), and runs once answered in any of ADK's three
// formats, with the credential in state under "temp:" + its key; a
// malformed answer fails with ADK's WorkflowDataError.
func TestBehaviorNodeAuth(t *testing.T) {
	t.Parallel()
	apiKey := et.Struct(`{"auth_scheme": {"type": "apiKey", "in": "header", "name": "x-api-key"},
		"raw_auth_credential": {"auth_type": "apiKey"}, "credential_key": "k1"}`)
	oauth := et.Struct(`{"auth_scheme": {"type": "apiKey", "in": "header", "name": "x-api-key"},
		"raw_auth_credential": {"auth_type": "oauth2"}, "credential_key": "k1"}`)
	for _, tc := range []struct {
		name    string
		auth    *structpb.Struct
		answer  map[string]any
		want    any
		wantErr bool
	}{
		{"auth config", apiKey, map[string]any{"auth_scheme": map[string]any{"type": "apiKey", "name": "x-api-key", "in": "header"},
			"exchanged_auth_credential": map[string]any{"auth_type": "apiKey", "api_key": "sk-test-123"}},
			map[string]any{"auth_type": "apiKey", "api_key": "sk-test-123"}, false},
		{"plain string", apiKey, map[string]any{"result": "sk-test-456"}, map[string]any{"auth_type": "apiKey", "api_key": "sk-test-456"}, false},
		{"credential", oauth, map[string]any{"auth_type": "oauth2", "oauth2": map[string]any{"access_token": "tok-abc"}},
			map[string]any{"auth_type": "oauth2", "oauth2": map[string]any{"access_token": "tok-abc"}}, false},
		{"malformed", apiKey, map[string]any{"foo": 1.0}, nil, true},
	} {
		node := &graph.Node{Name: "call_api", Kind: graph.Function, Function: "call_api", Auth: tc.auth, RerunOnResume: true}
		h := harness(t, graph.Config{Name: "auth_wf", Nodes: []*graph.Node{node}, Edges: chain(graph.Start, "call_api")})
		var cred *structpb.Value
		c := &client{fns: map[string]nodeFn{"call_api": func(call *graph.Call) (*graph.Result, error) {
			cred = call.State.GetFields()["temp:k1"]
			return &graph.Result{Output: val(t, map[string]any{"has_credential": cred != nil})}, nil
		}}}
		sid := h.NewSession(t, nil)
		events, err := run(t, h, sid, et.UserText("call it"), c)
		if err != nil || len(c.calls) != 0 {
			t.Fatalf("%s: first run: err %v, calls %v", tc.name, err, c.paths())
		}
		call := events[0].GetContent().GetParts()[0].GetFunctionCall()
		if call.GetName() != "adk_request_credential" || call.GetId() != "wf_auth:auth_wf@1/call_api@1" ||
			call.GetArgs().GetFields()["message"].GetStringValue() != "Please provide your API key for x-api-key." && tc.auth == apiKey {
			t.Errorf("%s: request = %v", tc.name, call)
		}
		if got := call.GetArgs().GetFields()["authConfig"].GetStructValue().GetFields()["rawAuthCredential"].GetStructValue().GetFields()["authType"]; got == nil {
			t.Errorf("%s: authConfig = %v", tc.name, call.GetArgs())
		}
		resp, _ := structpb.NewStruct(tc.answer)
		msg := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: call.Id, Name: "adk_request_credential", Response: resp}}}}
		events, err = run(t, h, sid, msg, c)
		if tc.wantErr {
			if err == nil || !strings.Contains(err.Error(), "The auth response is malformed") || len(events) != 1 || events[0].ErrorCode != "WorkflowDataError" {
				t.Errorf("%s: err = %v, events = %v", tc.name, err, events)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, cred.AsInterface()); diff != "" || c.calls[0].Path != "auth_wf@1/call_api@1" {
			t.Errorf("%s: credential (-want +got):\n%s", tc.name, diff)
		}
		if st := h.Session(t, sid).GetState().GetFields(); st["temp:k1"] != nil {
			t.Errorf("%s: the credential was stored: %v", tc.name, st)
		}
	}
}

// TestBehaviorMultipleTerminalOutputs: two terminal nodes that both
// produce output fail the run after both ran, with ADK's error event.
func TestBehaviorMultipleTerminalOutputs(t *testing.T) {
	t.Parallel()
	h := harness(t, graph.Config{Name: "route_wf", Nodes: []*graph.Node{fn("y"), fn("z")},
		Edges: []graph.Edge{{From: graph.Start, To: "y"}, {From: graph.Start, To: "z"}}})
	c := &client{fns: map[string]nodeFn{"y": output(structpb.NewStringValue("y")), "z": output(structpb.NewStringValue("z"))}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	const msg = "Workflow route_wf: multiple terminal nodes produced output (2). A workflow must have at most one terminal output."
	if err == nil || err.Error() != msg {
		t.Fatalf("err = %v", err)
	}
	last := events[len(events)-1]
	if last.ErrorCode != "WorkflowConfigurationError" || last.ErrorMessage != msg || last.GetNodeInfo().GetPath() != "route_wf@1" {
		t.Errorf("error event = %v", last)
	}
}

// TestBehaviorNestedWorkflow: a workflow placed as a node runs its own
// nodes under its path (their events authored by it, the user's message
// its first node's input when it follows START), and its terminal node's
// output is its output.
func TestBehaviorNestedWorkflow(t *testing.T) {
	t.Parallel()
	inner, err := graph.New(graph.Config{Name: "inner_wf", Nodes: []*graph.Node{fn("inner_a")}, Edges: chain(graph.Start, "inner_a")})
	if err != nil {
		t.Fatal(err)
	}
	h := harness(t, graph.Config{Name: "outer_wf", Nodes: []*graph.Node{{Name: "inner_wf", Kind: graph.AgentNode, Agent: inner}, fn("outer_after")},
		Edges: chain(graph.Start, "inner_wf", "outer_after")})
	var afterInput *structpb.Value
	c := &client{fns: map[string]nodeFn{
		"inner_a": output(val(t, map[string]any{"inner": true})),
		"outer_after": func(call *graph.Call) (*graph.Result, error) {
			afterInput = call.Input
			return &graph.Result{Output: structpb.NewStringValue("outer-done")}, nil
		},
	}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	type shape struct {
		Author, Path string
		OutputFor    []string
	}
	var got []shape
	for _, ev := range events {
		got = append(got, shape{ev.Author, ev.GetNodeInfo().GetPath(), ev.GetNodeInfo().GetOutputFor()})
	}
	want := []shape{
		{"inner_wf", "outer_wf@1/inner_wf@1/inner_a@1", []string{"outer_wf@1/inner_wf@1/inner_a@1", "outer_wf@1/inner_wf@1"}},
		{"outer_wf", "outer_wf@1/outer_after@1", []string{"outer_wf@1/outer_after@1", "outer_wf@1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if !cmp.Equal(afterInput.AsInterface(), map[string]any{"inner": true}) {
		t.Errorf("outer_after's input = %v", afterInput)
	}
}

// TestChatNodeAfterNodeRefused: a chat-mode agent must follow START, as
// ADK 2.13 refuses it after another node.
func TestChatNodeAfterNodeRefused(t *testing.T) {
	t.Parallel()
	chatter := mustAgent(t, llmagent.Config{Name: "chatter", Model: "scripted", Mode: llmagent.ModeChat})
	_, err := graph.New(graph.Config{Name: "w", Nodes: []*graph.Node{fn("a"), {Name: "chatter", Kind: graph.AgentNode, Agent: chatter}},
		Edges: chain(graph.Start, "a", "chatter")})
	const want = "The agent 'chatter' has been added to the workflow with mode='chat' following node 'a'. This is not supported " +
		"because chat-mode agents rely on conversational history (session events) and cannot consume direct node inputs from " +
		"preceding nodes. Please change the agent's mode to 'single_turn'"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v", err)
	}
}

// TestBehaviorNodeTimeout: an attempt past the node's timeout fails as
// ADK's NodeTimeoutError, with its error event; it is retried like any
// other exception.
func TestBehaviorNodeTimeout(t *testing.T) {
	t.Parallel()
	policy := retry.Config{MaxAttempts: 2}
	sleepy := &graph.Node{Name: "sleepy", Kind: graph.Function, Function: "sleepy", Timeout: 50 * time.Millisecond, Retry: &policy}
	clk := &clock{}
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{sleepy}, Edges: chain(graph.Start, "sleepy"), Sleep: clk.sleep})
	slow := &blockingClient{}
	events, err := runWith(t, h, h.NewSession(t, nil), et.UserText("go"), slow)
	const msg = "Node 'sleepy' timed out after 0.05 seconds."
	if err == nil || !strings.Contains(err.Error(), "NodeTimeoutError: "+msg) {
		t.Fatalf("err = %v", err)
	}
	if len(events) != 2 || events[0].ErrorCode != "NodeTimeoutError" || events[0].ErrorMessage != msg || slow.calls != 2 {
		t.Errorf("events = %v, calls %d", events, slow.calls)
	}
}

// blockingClient's node functions never answer before their context ends.
type blockingClient struct{ calls int }

func (*blockingClient) Tools() []runtime.Tool { return nil }

func (b *blockingClient) RunNode(ctx context.Context, _ *graph.Call) (*graph.Result, error) {
	b.calls++
	<-ctx.Done()
	return nil, ctx.Err()
}

func runWith(t *testing.T, h *et.Harness, sid string, msg *v1.Content, c runtime.ClientTools) ([]*v1.Event, error) {
	t.Helper()
	var events []*v1.Event
	for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: msg,
		RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: c}) {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// TestQuestionCarriesTheState: the event that asks the user carries the
// workflow's state, so a caller that stops reading once asked (as the
// seed's example breaks out of its loop) resumes without any node running
// again.
func TestQuestionCarriesTheState(t *testing.T) {
	t.Parallel()
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("prepare"), fn("gate"), fn("after")},
		Edges: chain(graph.Start, "prepare", "gate", "after")})
	c := &client{fns: map[string]nodeFn{
		"prepare": output(structpb.NewStringValue("p")),
		"gate": func(*graph.Call) (*graph.Result, error) {
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "q"}}}, nil
		},
		"after": output(structpb.NewStringValue("done")),
	}}
	sid := h.NewSession(t, nil)
	for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: et.UserText("go"),
		RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: c}) {
		if err != nil {
			t.Fatal(err)
		}
		if len(interrupts([]*v1.Event{ev})) > 0 {
			if ev.GetActions().GetAgentState() == nil {
				t.Errorf("the question carries no state: %v", ev)
			}
			break
		}
	}
	if _, err := run(t, h, sid, answer(t, "q", map[string]any{"ok": true}), c); err != nil {
		t.Fatal(err)
	}
	if got := c.paths(); !cmp.Equal(got, []string{"wf@1/prepare@1", "wf@1/gate@1", "wf@1/after@1"}) {
		t.Errorf("calls = %v", got)
	}
}
