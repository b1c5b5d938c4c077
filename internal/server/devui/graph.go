package devui

import (
	"net/http"
	"strconv"

	"github.com/emicklei/dot"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// The colours of ADK's agent graph.
const (
	graphDarkGreen  = "#0F5223"
	graphLightGreen = "#69CB87"
	graphLightGray  = "#cccccc"
	graphWhite      = "#ffffff"
)

// agentGraph draws an app's agent tree as ADK's web UI shows it (ADK's
// agent_graph: agents as ellipses, tools as boxes, workflow agents as
// clusters, left to right), in DOT, the pairs of node names in highlights
// drawn green.
type agentGraph struct {
	root       *dot.Graph
	highlights [][2]string
	// nodes are the nodes drawn, by name: graphviz knows a node by its
	// name wherever it is declared, and ADK's drawing relies on it.
	nodes map[string]dot.Node
	// edges are the edges drawn: the graph is strict.
	edges map[[2]string]bool
	// clusters are the workflow agents drawn: graphviz merges subgraphs
	// of one name.
	clusters map[string]*dot.Graph
	// remote names each agent's client tools.
	remote map[string][]string
}

func newAgentGraph(a App, highlights [][2]string, dark bool) *agentGraph {
	g := dot.NewGraph(dot.Directed, dot.Strict)
	g.Attr("rankdir", "LR")
	g.Attr("bgcolor", map[bool]string{true: "#333537", false: "#ffffff"}[dark])
	ag := &agentGraph{root: g, highlights: highlights, remote: a.ClientTools,
		nodes: map[string]dot.Node{}, edges: map[[2]string]bool{}, clusters: map[string]*dot.Graph{}}
	ag.build(g, a.Root, nil)
	return ag
}

func (ag *agentGraph) String() string { return ag.root.String() }

// node is an agent or a tool of the graph.
type node struct {
	agent runtime.Agent // nil for a tool
	tool  string
}

func (n node) name() string {
	if n.agent == nil {
		return n.tool
	}
	switch runtime.Describe(n.agent).Kind {
	case runtime.KindSequential:
		return n.agent.Name() + " (Sequential Agent)"
	case runtime.KindLoop:
		return n.agent.Name() + " (Loop Agent)"
	case runtime.KindParallel:
		return n.agent.Name() + " (Parallel Agent)"
	}
	return n.agent.Name()
}

func (n node) cluster() bool {
	if n.agent == nil {
		return false
	}
	switch runtime.Describe(n.agent).Kind {
	case runtime.KindSequential, runtime.KindLoop, runtime.KindParallel:
		return true
	}
	return false
}

// build draws agent, its sub-agents and its tools on g, as ADK's
// build_graph does.
func (ag *agentGraph) build(g *dot.Graph, agent runtime.Agent, parent runtime.Agent) {
	self := node{agent: agent}
	edge := func(from, to string) { ag.edge(g, from, to, self.cluster()) }
	ag.draw(g, self, parent, edge)
	for _, sub := range agent.SubAgents() {
		ag.build(g, sub, agent)
		if !(node{agent: sub}).cluster() && !self.cluster() {
			edge(agent.Name(), sub.Name())
		}
	}
	if l := runtime.Describe(agent).LLM; l != nil {
		var tools []string
		for _, t := range l.Tools {
			tools = append(tools, t.Name())
		}
		for _, name := range append(tools, ag.remote[agent.Name()]...) {
			ag.draw(g, node{tool: name}, nil, edge)
			edge(agent.Name(), name)
		}
	}
}

// draw draws one node, a workflow agent as a cluster of its sub-agents.
func (ag *agentGraph) draw(g *dot.Graph, n node, parent runtime.Agent, edge func(from, to string)) {
	name := n.name()
	if n.cluster() {
		if c, drawn := ag.clusters[name]; drawn {
			// Drawn again from its parent: only the edges are new.
			ag.cluster(c, n.agent, parent, edge)
			return
		}
		c := g.Subgraph(name, dot.ClusterOption{})
		ag.clusters[name] = c
		ag.cluster(c, n.agent, parent, edge)
		c.Attr("label", name)
		c.Attr("style", "rounded")
		c.Attr("color", graphWhite)
		c.Attr("fontcolor", graphLightGray)
		return
	}
	if _, drawn := ag.nodes[name]; drawn {
		return
	}
	caption, shape := "🔧 "+name, "box"
	if n.agent != nil {
		caption, shape = "🤖 "+name, "ellipse"
	}
	v := g.Node(name).Label(caption).Attr("shape", shape)
	ag.nodes[name] = v
	if ag.highlighted(name) {
		v.Attr("style", "filled,rounded").Attr("fillcolor", graphDarkGreen).Attr("color", graphDarkGreen).Attr("fontcolor", graphLightGray)
		return
	}
	v.Attr("style", "rounded").Attr("color", graphLightGray).Attr("fontcolor", graphLightGray)
}

// cluster draws a workflow agent's sub-agents inside its cluster and the
// edges of its order: a sequence in line, a loop closed, parallel agents
// each from the parent.
func (ag *agentGraph) cluster(c *dot.Graph, agent, parent runtime.Agent, edge func(from, to string)) {
	subs := agent.SubAgents()
	if len(subs) == 0 {
		return
	}
	kind := runtime.Describe(agent).Kind
	if kind == runtime.KindParallel {
		for _, sub := range subs {
			ag.build(c, sub, nil)
			if parent != nil {
				edge(parent.Name(), sub.Name())
			}
		}
		return
	}
	// The sub-agents first, so that each node is declared in the cluster
	// before an edge names it.
	for _, sub := range subs {
		ag.build(c, sub, nil)
	}
	loop := kind == runtime.KindLoop
	if parent != nil {
		edge(parent.Name(), subs[0].Name())
	}
	for i, sub := range subs {
		switch {
		case i < len(subs)-1:
			edge(sub.Name(), subs[i+1].Name())
		case loop:
			edge(sub.Name(), subs[0].Name())
		}
	}
}

func (ag *agentGraph) highlighted(name string) bool {
	for _, p := range ag.highlights {
		if p[0] == name || p[1] == name {
			return true
		}
	}
	return false
}

// edge draws an edge of the root graph: green when highlighted (backwards
// when the pair is the other way round), grey otherwise, without an arrow
// head outside workflow agents.
func (ag *agentGraph) edge(_ *dot.Graph, from, to string, inWorkflow bool) {
	if ag.edges[[2]string{from, to}] {
		return
	}
	ag.edges[[2]string{from, to}] = true
	e := ag.root.Edge(ag.node(from), ag.node(to))
	for _, p := range ag.highlights {
		switch {
		case p[0] == from && p[1] == to:
			e.Attr("color", graphLightGreen)
			return
		case p[0] == to && p[1] == from:
			e.Attr("color", graphLightGreen).Attr("dir", "back")
			return
		}
	}
	if !inWorkflow {
		e.Attr("arrowhead", "none")
	}
	e.Attr("color", graphLightGray)
}

// node returns the node of name, declared in the root graph when nothing
// drew it yet (as graphviz makes a node an edge names).
func (ag *agentGraph) node(name string) dot.Node {
	if n, ok := ag.nodes[name]; ok {
		return n
	}
	n := ag.root.Node(name)
	ag.nodes[name] = n
	return n
}

// graphResult is ADK's GetEventGraphResult.
type graphResult struct {
	DotSrc string `json:"dotSrc"`
}

// GraphRoutes are the agent graph routes of the dev UI: the graph of an
// app (ADK 1.x's drawing), its image (2.x's plot for a 2.x app), an
// event's graph and the serialized app of build_graph.
func GraphRoutes(h Host) []Route {
	dark := func(r *http.Request) bool {
		b, _ := strconv.ParseBool(r.URL.Query().Get("dark_mode"))
		return b
	}
	return []Route{
		{"GET", "/dev/apps/{app_name}/graph", func(w http.ResponseWriter, r *http.Request, p map[string]string) {
			a, err := h.App(p["app_name"])
			if err != nil {
				h.Fail(w, r, err)
				return
			}
			writeTraceJSON(w, graphResult{DotSrc: newAgentGraph(a, nil, dark(r)).String()})
		}},
		{"GET", "/dev/apps/{app_name}/build_graph_image", func(w http.ResponseWriter, r *http.Request, p map[string]string) {
			a, err := h.App(p["app_name"])
			if err != nil {
				h.Fail(w, r, err)
				return
			}
			if a.Behavior == runtime.Behavior2x {
				// ADK 2.x plots its serialized app: top to bottom, a
				// graph per workflow.
				graphs, ok := plotGraphs(a, r.URL.Query().Get("node"), dark(r))
				if !ok {
					h.Fail(w, r, &runtime.Error{Code: runtime.CodeNotFound, Reason: v1.ErrorReason_NODE_NOT_FOUND.String(),
						Message: "Node not found: " + r.URL.Query().Get("node")})
					return
				}
				writeTraceJSON(w, graphs)
				return
			}
			writeTraceJSON(w, map[string]graphResult{"": {DotSrc: newAgentGraph(a, nil, dark(r)).String()}})
		}},
		{"GET", "/dev/apps/{app_name}/users/{user_id}/sessions/{session_id}/events/{event_id}/graph", func(w http.ResponseWriter, r *http.Request, p map[string]string) {
			eventGraph(h, w, r, p)
		}},
		{"GET", "/dev/apps/{app_name}/build_graph", func(w http.ResponseWriter, r *http.Request, p map[string]string) {
			buildGraph(h, w, r, p)
		}},
	}
}

// eventGraph answers ADK's event graph: the agent graph with the event's
// author and the functions it called or answered highlighted; {} for an
// event the session does not hold.
func eventGraph(h Host, w http.ResponseWriter, r *http.Request, p map[string]string) {
	ctx := r.Context()
	if err := h.CheckSessionKey(ctx, p["app_name"], p["user_id"], p["session_id"]); err != nil {
		h.Fail(w, r, err)
		return
	}
	a, err := h.App(p["app_name"])
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	sess, err := h.Session(ctx, p["app_name"], p["user_id"], p["session_id"])
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	for _, ev := range sess.GetEvents() {
		if ev.GetId() != p["event_id"] {
			continue
		}
		var pairs [][2]string
		calls, responses := runtime.FunctionCalls(ev), runtime.FunctionResponses(ev)
		switch {
		case len(calls) > 0:
			for _, c := range calls {
				pairs = append(pairs, [2]string{ev.GetAuthor(), c.GetName()})
			}
		case len(responses) > 0:
			for _, c := range responses {
				pairs = append(pairs, [2]string{c.GetName(), ev.GetAuthor()})
			}
		default:
			pairs = [][2]string{{ev.GetAuthor(), ""}}
		}
		writeTraceJSON(w, graphResult{DotSrc: newAgentGraph(a, pairs, true).String()})
		return
	}
	writeTraceJSON(w, struct{}{})
}
