package graph

import (
	"context"
	"errors"
	"iter"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// Workflow is ADK 2.x's graph Workflow. It is immutable and safe for
// concurrent invocations.
type Workflow struct {
	cfg Config
	g   *graph
	sub []runtime.Agent
}

// New validates cfg's graph and returns the workflow.
func New(cfg Config) (*Workflow, error) {
	g, err := validate(&cfg)
	if err != nil {
		return nil, err
	}
	w := &Workflow{cfg: cfg, g: g}
	for _, n := range cfg.Nodes {
		if n.Kind == AgentNode || n.Kind == TaskNode {
			w.sub = append(w.sub, n.Agent)
		}
	}
	return w, nil
}

// Name implements [runtime.Agent].
func (w *Workflow) Name() string { return w.cfg.Name }

// Description implements [runtime.Agent].
func (w *Workflow) Description() string { return w.cfg.Description }

// SubAgents implements [runtime.Agent]: the agents of its agent nodes.
func (w *Workflow) SubAgents() []runtime.Agent { return w.sub }

// Callbacks implements [runtime.Agent].
func (w *Workflow) Callbacks() *runtime.AgentCallbacks { return &w.cfg.Callbacks }

// Nodes returns the workflow's nodes in declaration order.
func (w *Workflow) Nodes() []*Node { return w.cfg.Nodes }

// Edges returns the workflow's edges.
func (w *Workflow) Edges() []Edge { return w.cfg.Edges }

// Describe implements [runtime.Describer]: its nodes and edges.
func (w *Workflow) Describe() runtime.AgentDescription {
	g := &runtime.GraphDescription{Nodes: make([]runtime.GraphNode, 0, len(w.cfg.Nodes)),
		Edges: make([]runtime.GraphEdge, 0, len(w.cfg.Edges))}
	for _, n := range w.cfg.Nodes {
		g.Nodes = append(g.Nodes, runtime.GraphNode{Name: n.Name, Kind: nodeKinds[n.Kind], Function: n.Function, Agent: n.Agent})
	}
	for _, e := range w.cfg.Edges {
		g.Edges = append(g.Edges, runtime.GraphEdge{From: e.From, To: e.To, Routes: e.Routes})
	}
	return runtime.AgentDescription{Kind: runtime.KindWorkflow, Graph: g}
}

// nodeKinds are the described kinds of the node kinds.
var nodeKinds = map[Kind]runtime.NodeKind{Function: runtime.NodeFunction, AgentNode: runtime.NodeAgent,
	Join: runtime.NodeJoin, ToolNode: runtime.NodeTool, TaskNode: runtime.NodeTask}

// RunsEveryInvocation implements [runtime.RootRunner]: a workflow resumes
// its own nodes.
func (w *Workflow) RunsEveryInvocation() bool { return true }

// Run implements [runtime.Agent]: it resumes the workflow paused in an
// earlier invocation when the user's message answers its questions, and
// otherwise runs the graph from START with the user's message as input.
func (w *Workflow) Run(ictx *runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		ctx, cancel := context.WithCancel(ictx.Context())
		defer cancel()
		r := newRun(w, ictx.WithContext(ctx))
		resumed, err := r.resume()
		if f := (*failure)(nil); errors.As(err, &f) {
			if yield(f.ev, nil) {
				yield(nil, f.err)
			}
			return
		}
		if err != nil {
			yield(nil, err)
			return
		}
		if !resumed {
			r.seed()
		}
		r.loop(yield)
		cancel()
		r.wait()
	}
}
