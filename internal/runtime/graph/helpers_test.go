package graph_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// nodeFn is a client node function of a test.
type nodeFn func(call *graph.Call) (*graph.Result, error)

// client runs node functions in-process, as a Connect client would, and
// records the calls.
type client struct {
	mu    sync.Mutex
	fns   map[string]nodeFn
	calls []*graph.Call
}

func (c *client) Tools() []runtime.Tool { return nil }

func (c *client) RunNode(_ context.Context, call *graph.Call) (*graph.Result, error) {
	c.mu.Lock()
	c.calls = append(c.calls, call)
	fn := c.fns[call.Function]
	c.mu.Unlock()
	return fn(call)
}

// paths lists the node paths called, in order.
func (c *client) paths() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, call := range c.calls {
		out = append(out, call.Path)
	}
	return out
}

// harness runs a workflow as an ADK 2.x app.
func harness(t *testing.T, cfg graph.Config) *et.Harness {
	t.Helper()
	w, err := graph.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, w)
	h.Runner.App.Behavior, h.Runner.App.NodePaths = runtime.Behavior2x, true
	return h
}

// run runs msg with c as the client.
func run(t *testing.T, h *et.Harness, sid string, msg *v1.Content, c *client) ([]*v1.Event, error) {
	t.Helper()
	var events []*v1.Event
	for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: msg,
		RunConfig: runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls}, Client: c}) {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

func fn(name string) *graph.Node {
	return &graph.Node{Name: name, Kind: graph.Function, Function: name}
}

func chain(names ...string) []graph.Edge {
	var out []graph.Edge
	for i := 0; i+1 < len(names); i++ {
		out = append(out, graph.Edge{From: names[i], To: names[i+1]})
	}
	return out
}

func val(t *testing.T, v any) *structpb.Value {
	t.Helper()
	pv, err := structpb.NewValue(v)
	if err != nil {
		t.Fatal(err)
	}
	return pv
}

func output(v *structpb.Value) nodeFn {
	return func(*graph.Call) (*graph.Result, error) { return &graph.Result{Output: v}, nil }
}

// answer is the user's answer to an interrupt.
func answer(t *testing.T, id string, resp map[string]any) *v1.Content {
	t.Helper()
	s, err := structpb.NewStruct(resp)
	if err != nil {
		t.Fatal(err)
	}
	return &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: id, Name: graph.RequestInputName, Response: s}}}}
}

// interrupts lists the adk_request_input calls' ids of events.
func interrupts(events []*v1.Event) []string {
	var ids []string
	for _, ev := range events {
		for _, c := range runtime.FunctionCalls(ev) {
			if c.Name == graph.RequestInputName {
				ids = append(ids, c.Id)
			}
		}
	}
	return ids
}

// clock records the waits between attempts instead of waiting.
type clock struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (c *clock) sleep(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	return nil
}

func has(list []string, s string) bool { return slices.Contains(list, s) }
