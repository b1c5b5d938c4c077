package graph_test

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// TestBehaviorConcurrentBranchOrder: the events of concurrent function
// and join nodes come in ADK 2.13's order, whatever order the client
// answers in: one event per running node per round in the order they
// started, successors two rounds after their predecessor's last event, a
// node with several triggers run once at a time. Each want is the order
// ADK 2.13 gave for the same graph; the slow node answers only after the
// nodes after it did, so an engine that streams in answer order fails.
func TestBehaviorConcurrentBranchOrder(t *testing.T) {
	t.Parallel()
	str := structpb.NewStringValue
	out := func(s string) *graph.Result { return &graph.Result{Output: str(s)} }
	routed := func(s string) *graph.Result { return &graph.Result{Output: str(s), Route: str("r")} }
	delta := &graph.Result{StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{"s": structpb.NewNumberValue(1)}}}
	asks := &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "q1", Message: "one"}, {InterruptID: "q2", Message: "two"}}}
	join := &graph.Node{Name: "join", Kind: graph.Join}
	for _, tc := range []struct {
		name    string
		nodes   []*graph.Node
		edges   []graph.Edge
		results map[string]*graph.Result
		slow    string // answers after the others of its round
		want    []string
	}{{
		name:  "fan-out chains into a join",
		nodes: []*graph.Node{fn("split"), fn("a"), fn("a2"), fn("a3"), fn("b"), fn("b2"), fn("c"), join, fn("fin")},
		edges: append(append(append(fanOut("split", "a", "b", "c"), chain("a", "a2", "a3", "join")...), chain("b", "b2", "join")...),
			graph.Edge{From: graph.Start, To: "split"}, graph.Edge{From: "c", To: "join"}, graph.Edge{From: "join", To: "fin"}),
		results: map[string]*graph.Result{"split": out("x"), "a": out("A"), "a2": out("A2"), "a3": out("A3"), "b": out("B"),
			"b2": out("B2"), "c": out("C"), "fin": {}},
		slow: "a",
		want: []string{"split@1", "a@1", "b@1", "c@1", "a2@1", "b2@1", "a3@1", "join@1"},
	}, {
		name:  "a route is a round of its own",
		nodes: []*graph.Node{fn("split"), fn("a"), fn("a2"), fn("b"), fn("b2")},
		edges: append(fanOut("split", "a", "b"), graph.Edge{From: graph.Start, To: "split"}, graph.Edge{From: "a", To: "a2"},
			graph.Edge{From: "b", To: "b2", Routes: []*structpb.Value{str("r")}}),
		results: map[string]*graph.Result{"split": out("x"), "a": {}, "a2": out("A2"), "b": routed("B"), "b2": delta},
		slow:    "a",
		want:    []string{"split@1", "b@1", "b@1:route", "a2@1", "b2@1"},
	}, {
		name:    "questions interleave with a sibling",
		nodes:   []*graph.Node{fn("split"), fn("q"), fn("s"), fn("s2")},
		edges:   append(fanOut("split", "q", "s"), graph.Edge{From: graph.Start, To: "split"}, graph.Edge{From: "s", To: "s2"}),
		results: map[string]*graph.Result{"split": out("x"), "q": asks, "s": delta, "s2": out("S2")},
		slow:    "q",
		want:    []string{"split@1", "q@1:ask", "s@1", "q@1:ask", "s2@1"},
	}, {
		name:    "two arrivals run a node twice, one after the other",
		nodes:   []*graph.Node{fn("split"), fn("a"), fn("c"), fn("d")},
		edges:   append(fanOut("split", "a", "c"), graph.Edge{From: graph.Start, To: "split"}, graph.Edge{From: "a", To: "d"}, graph.Edge{From: "c", To: "d"}),
		results: map[string]*graph.Result{"split": out("x"), "a": out("A"), "c": out("C"), "d": {}},
		slow:    "a",
		want:    []string{"split@1", "a@1", "c@1"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// In a bubble the slow node's pause ends only once every other
			// goroutine waits: its sibling's answer has been handled.
			synctest.Test(t, func(t *testing.T) {
				h := harness(t, graph.Config{Name: "wf", Nodes: tc.nodes, Edges: tc.edges})
				others := make(chan struct{}, len(tc.results))
				fns := map[string]nodeFn{}
				for name, res := range tc.results {
					fns[name] = func(*graph.Call) (*graph.Result, error) {
						if name == tc.slow {
							// Answer after a sibling did, and give its answer
							// time to arrive first.
							select {
							case <-others:
							case <-time.After(10 * time.Second):
							}
							time.Sleep(20 * time.Millisecond)
						} else if name != "split" {
							others <- struct{}{}
						}
						return res, nil
					}
				}
				c := &client{fns: fns}
				events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, eventOrder(events)); diff != "" {
					t.Errorf("events (-ADK 2.13 +got):\n%s", diff)
				}
				if tc.name == "two arrivals run a node twice, one after the other" {
					if got := c.paths(); !strings.HasSuffix(strings.Join(got, " "), "wf@1/d@1 wf@1/d@2") {
						t.Errorf("calls = %v, want d@1 then d@2 last", got)
					}
				}
			})
		})
	}
}

// fanOut is one edge from a node to each of targets, in order.
func fanOut(from string, targets ...string) []graph.Edge {
	var out []graph.Edge
	for _, to := range targets {
		out = append(out, graph.Edge{From: from, To: to})
	}
	return out
}

// eventOrder names each node event by its run ("a@1"), marking route-only
// events and questions.
func eventOrder(events []*v1.Event) []string {
	var out []string
	for _, ev := range events {
		path := ev.GetNodeInfo().GetPath()
		i := strings.LastIndex(path, "/")
		if i < 0 {
			continue
		}
		name := path[i+1:]
		switch {
		case len(interrupts([]*v1.Event{ev})) > 0:
			name += ":ask"
		case ev.GetActions().GetRoute() != nil && ev.Output == nil:
			name += ":route"
		}
		out = append(out, name)
	}
	return out
}

// TestBehaviorConcurrentOrderRandomGraphs replays random graphs of
// function and join nodes whose order google-adk 2.13.0 recorded
// (integration/testdata/workflows/adk213/gen/order.py): each node emits
// an output or nothing, and the client answers after a random short
// delay, so answers arrive in any order.
func TestBehaviorConcurrentOrderRandomGraphs(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/order_random.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Edges          [][2]string `json:"edges"`
		Joins          []string    `json:"joins"`
		Silent         []string    `json:"silent"`
		MaxConcurrency int         `json:"max_concurrency"`
		Want           []string    `json:"want"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			// In a bubble the answers' random delays pass on a fake clock.
			synctest.Test(t, func(t *testing.T) {
				var nodes []*graph.Node
				var edges []graph.Edge
				fns := map[string]nodeFn{}
				rng := rand.New(rand.NewPCG(uint64(i), 1))
				var mu sync.Mutex
				for _, e := range tc.Edges {
					edges = append(edges, graph.Edge{From: e[0], To: e[1]})
					name := e[1]
					if _, ok := fns[name]; ok || slices.ContainsFunc(nodes, func(n *graph.Node) bool { return n.Name == name }) {
						continue
					}
					if slices.Contains(tc.Joins, name) {
						nodes = append(nodes, &graph.Node{Name: name, Kind: graph.Join})
						continue
					}
					nodes = append(nodes, fn(name))
					res := &graph.Result{}
					if !slices.Contains(tc.Silent, name) {
						res.Output = structpb.NewStringValue(name)
					}
					fns[name] = func(*graph.Call) (*graph.Result, error) {
						mu.Lock()
						d := time.Duration(rng.IntN(3000)) * time.Microsecond
						mu.Unlock()
						time.Sleep(d)
						return res, nil
					}
				}
				h := harness(t, graph.Config{Name: "wf", Nodes: nodes, Edges: edges, MaxConcurrency: tc.MaxConcurrency})
				events, _ := run(t, h, h.NewSession(t, nil), et.UserText("go"), &client{fns: fns})
				if diff := cmp.Diff(tc.Want, eventOrder(events), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("edges %v, joins %v, silent %v, max_concurrency %d: events (-ADK 2.13 +got):\n%s",
						tc.Edges, tc.Joins, tc.Silent, tc.MaxConcurrency, diff)
				}
			})
		})
	}
}

// TestBehaviorQuestionCarriesTheState: a node's questions are the
// invocation's last events and the last carries the workflow's state, so
// no checkpoint event follows them.
func TestBehaviorQuestionCarriesTheState(t *testing.T) {
	t.Parallel()
	h := harness(t, graph.Config{Name: "wf", Nodes: []*graph.Node{fn("ask"), fn("after")}, Edges: chain(graph.Start, "ask", "after")})
	c := &client{fns: map[string]nodeFn{
		"ask": func(*graph.Call) (*graph.Result, error) {
			return &graph.Result{RequestInputs: []*graph.RequestInput{{InterruptID: "q1"}, {InterruptID: "q2"}}}, nil
		},
		"after": output(structpb.NewStringValue("done")),
	}}
	events, err := run(t, h, h.NewSession(t, nil), et.UserText("go"), c)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventOrder(events); len(events) != 2 || !cmp.Equal(got, []string{"ask@1:ask", "ask@1:ask"}) {
		t.Fatalf("%d events %v, want the two questions only", len(events), got)
	}
	if events[len(events)-1].GetActions().GetAgentState() == nil {
		t.Error("the last question carries no state")
	}
}
