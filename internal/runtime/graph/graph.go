// Package graph holds ADK 2.x's Workflow: a graph of nodes joined by
// edges, some of them routed, run from START. A node is a function that
// runs in the client, an agent, a join that waits for all its
// predecessors, or a tool. A node's output is its successors' input; a
// node may pause the workflow to ask the user (RequestInput), and the
// answer resumes it where it stopped, in a later invocation.
package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/retry"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// Start is the name of the graph's entry, ADK's START node.
const Start = runtime.GraphStart

// DefaultRoute is the route of an edge taken when no other routed edge of
// its node matched, ADK's DEFAULT_ROUTE.
const DefaultRoute = runtime.GraphDefaultRoute

// Kind is what a node runs.
type Kind int

// Node kinds.
const (
	// Function runs a function of the client's, over Connect.
	Function Kind = iota + 1
	// AgentNode runs an agent (an LlmAgent in one of ADK's node modes, or
	// any other agent, a nested workflow included).
	AgentNode
	// Join waits for all its predecessors and outputs their outputs by
	// name.
	Join
	// ToolNode runs a tool with its input as the arguments.
	ToolNode
	// TaskNode runs a task-mode LlmAgent (Agent) inside a node of its own
	// name, its input the agent's task and its finish_task arguments the
	// output (ADK's run_llm_agent_as_node in a @node).
	TaskNode
)

// Node is a node of the graph.
type Node struct {
	Name string
	Kind Kind
	// Function is the client function's declared name (Function nodes).
	Function string
	// Agent is the agent (AgentNode nodes).
	Agent runtime.Agent
	// Tool is the tool (ToolNode nodes); nil for a tool of the client's,
	// found by ToolName among the tools it declared.
	Tool     runtime.Tool
	ToolName string
	// Retry, when set, runs a failed node again (ADK's RetryConfig).
	Retry *retry.Config
	// Auth, when set, is the AuthConfig (ADK's JSON) of the credential a
	// function node needs: without it in state ("temp:" + its credential
	// key) the node asks the user for it first, and runs once answered.
	Auth *structpb.Struct
	// RerunOnResume runs a node that asked the user again when answered,
	// with the answers as its resume inputs; otherwise the answer is its
	// output (ADK's rerun_on_resume, default false for function nodes).
	RerunOnResume bool
	// Timeout, when set, bounds each attempt of a node (ADK's node
	// timeout): past it the attempt fails as NodeTimeoutError.
	Timeout time.Duration
	// Description says what the node does (ADK's description).
	Description string
	// WaitForOutput keeps a node that ended without an output or a route
	// from triggering its successors (ADK's wait_for_output).
	WaitForOutput bool
	// ParallelWorker runs a function or single-turn agent node once per
	// item of its input (a list; anything else is one item), at most
	// MaxParallelWorkers at once (0: no bound), its output the items'
	// outputs in order (ADK's parallel_worker).
	ParallelWorker     bool
	MaxParallelWorkers int
	// RequireConfirmation asks the user to approve a function node's run
	// first (ADK's require_confirmation); a rejection is its output.
	RequireConfirmation bool
}

// Edge joins two nodes. An edge with routes is taken when the route its
// source node picked matches one of them; an edge without is always taken.
type Edge struct {
	From, To string
	// Routes are bool, number or string values; DefaultRoute is taken when
	// no other routed edge of From matched.
	Routes []*structpb.Value
}

// Config declares a workflow.
type Config struct {
	Name        string
	Description string
	Nodes       []*Node
	Edges       []Edge
	Callbacks   runtime.AgentCallbacks
	// MaxConcurrency bounds the nodes running at once; 0 is unbounded.
	MaxConcurrency int
	// AnswerOnResume, for a workflow run as a node of another, makes the
	// answer to a question asked inside it its output instead of resuming
	// it (ADK's rerun_on_resume false; the default resumes it).
	AnswerOnResume bool
	// Sleep waits between a node's attempts; nil waits on a timer. Tests
	// inject a clock here.
	Sleep func(ctx context.Context, d time.Duration) error
	// Uniform draws retry jitter; nil uses [retry.Uniform].
	Uniform func(lo, hi float64) float64
}

// graph is a validated Config indexed for the run.
type graph struct {
	nodes map[string]*Node
	out   map[string][]Edge // by source, in declaration order
	preds map[string][]string
}

// failed is ADK's GraphValidationError text.
func failed(format string, args ...any) error {
	return fmt.Errorf("Graph validation failed. "+format, args...)
}

// pyList writes names as Python prints a list of strings.
func pyList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = pyfmt.Quote(n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// validate checks the graph as ADK's graph validation does, with its
// texts, and indexes it.
func validate(cfg *Config) (*graph, error) {
	if cfg.Name == "" {
		return nil, errors.New("Workflow: name is required")
	}
	g := &graph{nodes: map[string]*Node{}, out: map[string][]Edge{}, preds: map[string][]string{}}
	var dups []string
	for _, n := range cfg.Nodes {
		if n.Name == "" {
			return nil, errors.New("a node needs a name")
		}
		if n.Name == Start {
			return nil, fmt.Errorf("node name %q is reserved for the graph's entry", Start)
		}
		if _, dup := g.nodes[n.Name]; dup && !slices.Contains(dups, n.Name) {
			dups = append(dups, n.Name)
		}
		g.nodes[n.Name] = n
	}
	if len(dups) > 0 {
		return nil, failed("Duplicate node names found: %s. Each node of a workflow needs a name of its own.", pyList(dups))
	}
	if len(cfg.Edges) == 0 {
		return nil, errors.New("a workflow needs at least one edge from START")
	}
	seen := map[[2]string]bool{}
	for _, e := range cfg.Edges {
		for _, end := range []string{e.From, e.To} {
			if _, ok := g.nodes[end]; !ok && end != Start {
				return nil, fmt.Errorf("edge %s -> %s: unknown node %q", e.From, e.To, end)
			}
		}
		if e.To == Start {
			return nil, failed("START node must not have incoming edges.")
		}
		if e.From == Start && len(e.Routes) > 0 {
			return nil, failed("Edges from START must not have routes (edge to %s has route %s).", e.To, routeText(e.Routes))
		}
		if seen[[2]string{e.From, e.To}] {
			return nil, failed("Duplicate edge found: from=%s, to=%s", e.From, e.To)
		}
		seen[[2]string{e.From, e.To}] = true
		for _, r := range e.Routes {
			if err := checkRoute(r); err != nil {
				return nil, fmt.Errorf("edge %s -> %s: %w", e.From, e.To, err)
			}
			if len(e.Routes) > 1 && r.GetStringValue() == DefaultRoute {
				return nil, failed("DEFAULT_ROUTE cannot be combined with other routes in a list (edge from=%s, to=%s). "+
					"Use a separate edge for DEFAULT_ROUTE.", e.From, e.To)
			}
		}
		g.out[e.From] = append(g.out[e.From], e)
		if !slices.Contains(g.preds[e.To], e.From) {
			g.preds[e.To] = append(g.preds[e.To], e.From)
		}
	}
	if len(g.out[Start]) == 0 {
		return nil, errors.New("no edge starts at START")
	}
	reached := map[string]bool{Start: true}
	queue := []string{Start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range g.out[n] {
			if !reached[e.To] {
				reached[e.To] = true
				queue = append(queue, e.To)
			}
		}
	}
	var unreachable []string
	for _, n := range cfg.Nodes {
		if !reached[n.Name] {
			unreachable = append(unreachable, n.Name)
		}
	}
	if len(unreachable) > 0 {
		return nil, failed("The following nodes are unreachable from START: %s", pyList(unreachable))
	}
	if cycle := g.unconditionalCycle(cfg.Nodes); cycle != nil {
		return nil, failed("Unconditional cycle detected: %s. Cycles must include at least one conditional (routed) edge to avoid infinite loops.",
			strings.Join(cycle, " -> "))
	}
	for _, n := range cfg.Nodes {
		la, ok := n.Agent.(*llmagent.Agent)
		if n.Kind != AgentNode || !ok || !la.IsChat() {
			continue
		}
		for _, p := range g.preds[n.Name] {
			if p != Start {
				return nil, fmt.Errorf("The agent '%s' has been added to the workflow with mode='chat' following node '%s'. "+ //nolint:staticcheck // ST1005: ADK's message, word for word.
					"This is not supported because chat-mode agents rely on conversational history (session events) and "+
					"cannot consume direct node inputs from preceding nodes. Please change the agent's mode to 'single_turn'", la.Name(), p)
			}
		}
	}
	return g, nil
}

// routeText writes routes as ADK prints an edge's route.
func routeText(routes []*structpb.Value) string {
	one := func(r *structpb.Value) string {
		switch k := r.GetKind().(type) {
		case *structpb.Value_BoolValue:
			if k.BoolValue {
				return "True"
			}
			return "False"
		case *structpb.Value_NumberValue:
			return strconv.FormatInt(int64(k.NumberValue), 10)
		}
		return r.GetStringValue()
	}
	if len(routes) == 1 {
		return one(routes[0])
	}
	parts := make([]string, len(routes))
	for i, r := range routes {
		if _, ok := r.GetKind().(*structpb.Value_StringValue); ok {
			parts[i] = pyfmt.Quote(r.GetStringValue())
		} else {
			parts[i] = one(r)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// unconditionalCycle returns a cycle of unrouted edges, its first node
// repeated at its end, or nil.
func (g *graph) unconditionalCycle(nodes []*Node) []string {
	const (
		unseen = iota
		open
		closed
	)
	mark := map[string]int{}
	var stack []string
	var walk func(n string) []string
	walk = func(n string) []string {
		mark[n] = open
		stack = append(stack, n)
		for _, e := range g.out[n] {
			if e.Routes != nil {
				continue
			}
			switch mark[e.To] {
			case open:
				i := slices.Index(stack, e.To)
				return append(slices.Clone(stack[i:]), e.To)
			case unseen:
				if c := walk(e.To); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		mark[n] = closed
		return nil
	}
	for _, n := range nodes {
		if mark[n.Name] == unseen {
			if c := walk(n.Name); c != nil {
				return c
			}
		}
	}
	return nil
}

// checkRoute accepts ADK's RouteValue: a bool, an integer or a string.
func checkRoute(v *structpb.Value) error {
	switch k := v.GetKind().(type) {
	case *structpb.Value_BoolValue, *structpb.Value_StringValue:
		return nil
	case *structpb.Value_NumberValue:
		if k.NumberValue != float64(int64(k.NumberValue)) {
			return fmt.Errorf("route %v: a number route must be an integer", k.NumberValue)
		}
		return nil
	default:
		return errors.New("a route must be a bool, an integer or a string")
	}
}

// CheckRoute checks the route a node picked: nil (none), a RouteValue
// (a string of at most maxBytes), or a list of at most max of them.
func CheckRoute(v *structpb.Value, max, maxBytes int) error {
	if v == nil {
		return nil
	}
	items := []*structpb.Value{v}
	if l := v.GetListValue(); l != nil {
		if len(l.GetValues()) > max {
			return fmt.Errorf("at most %d routes", max)
		}
		items = l.GetValues()
	}
	for _, it := range items {
		if err := checkRoute(it); err != nil {
			return err
		}
		if len(it.GetStringValue()) > maxBytes {
			return fmt.Errorf("a route is at most %d bytes", maxBytes)
		}
	}
	return nil
}

// next returns the nodes a completed node triggers given the route it
// picked (nil for none), as ADK's Graph.get_next_pending_nodes: unrouted
// edges always, routed edges whose route matches, and DEFAULT_ROUTE edges
// when no routed edge matched.
func (g *graph) next(from string, route *structpb.Value) []string {
	var picked []*structpb.Value
	if l := route.GetListValue(); l != nil {
		picked = l.GetValues()
	} else if route != nil {
		picked = []*structpb.Value{route}
	}
	var out, defaults []string
	matched := false
	for _, e := range g.out[from] {
		if e.Routes == nil {
			out = append(out, e.To)
			continue
		}
		hit := false
		for _, r := range e.Routes {
			if r.GetStringValue() == DefaultRoute && r.GetKind() != nil {
				if _, ok := r.GetKind().(*structpb.Value_StringValue); ok {
					defaults = append(defaults, e.To)
					continue
				}
			}
			for _, p := range picked {
				if routeEqual(r, p) {
					hit = true
				}
			}
		}
		if hit {
			out = append(out, e.To)
			matched = true
		}
	}
	if !matched {
		out = append(out, defaults...)
	}
	return out
}

// routeEqual compares routes as Python's == does: True equals 1.
func routeEqual(a, b *structpb.Value) bool {
	num := func(v *structpb.Value) (float64, bool) {
		switch k := v.GetKind().(type) {
		case *structpb.Value_NumberValue:
			return k.NumberValue, true
		case *structpb.Value_BoolValue:
			if k.BoolValue {
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	if x, ok := num(a); ok {
		y, ok := num(b)
		return ok && x == y
	}
	return proto.Equal(a, b)
}
