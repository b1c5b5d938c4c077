package devui

import (
	"html"
	"regexp"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// plotTheme is one of the two palettes of ADK 2.x's plot_workflow_graph.
type plotTheme struct {
	background, fill, border, font, edge, edgeFont string
	startFill, startBorder, endFill, endBorder     string
}

var (
	plotLight = plotTheme{"#F8FAFC", "#FFFFFF", "#94A3B8", "#0F172A", "#64748B", "#475569",
		"#10B981", "#059669", "#EF4444", "#DC2626"}
	plotDark = plotTheme{"#0F172A", "#1E293B", "#475569", "#F8FAFC", "#94A3B8", "#CBD5E1",
		"#059669", "#047857", "#DC2626", "#B91C1C"}
)

// plotIcons are the icon and its colour of each node type, as ADK 2.x
// draws them.
var plotIcons = map[string][2]string{
	"agent":    {"✦", "#42A5F5"},
	"workflow": {"⊷", "#9333EA"},
	"function": {"ƒ", "#10B981"},
	"join":     {"⌵", "#F59E0B"},
	"tool":     {"🔧", "#6B7280"},
}

// plotNode is a node of a plotted graph: its name, ADK's node type and the
// tools drawn beside it.
type plotNode struct {
	name, kind string
	tools      []string
}

// plotEdge is an edge of a plotted graph; label is its route, as Python
// prints it.
type plotEdge struct {
	from, to, label string
	routed, tool    bool
}

// plotGraphs answers ADK 2.x's build_graph_image: the DOT of every
// workflow under the agent at path (the root for ""), by path, and of the
// agent itself as a tree when it is not a workflow; false when no agent is
// at path.
func plotGraphs(a App, path string, dark bool) (map[string]graphResult, bool) {
	target := a.Root
	remote := a.ClientTools
	if path != "" {
		if target = plotFind(target, path); target == nil {
			return nil, false
		}
	}
	theme := plotLight
	if dark {
		theme = plotDark
	}
	out := map[string]graphResult{}
	var walk func(agent runtime.Agent, at string)
	walk = func(agent runtime.Agent, at string) {
		if g := runtime.Describe(agent).Graph; g != nil {
			out[at] = graphResult{DotSrc: plotWorkflow(g, remote, theme)}
		}
		for _, c := range plotChildren(agent) {
			walk(c, strings.TrimPrefix(at+"/"+c.Name(), "/"))
		}
	}
	walk(target, path)
	if _, ok := out[path]; !ok {
		out[path] = graphResult{DotSrc: plotTree(target, remote, theme)}
	}
	return out, true
}

// plotChildren are the agents under agent as ADK's serialized app holds
// them: a workflow's agent nodes, any other agent's sub-agents.
func plotChildren(agent runtime.Agent) []runtime.Agent {
	g := runtime.Describe(agent).Graph
	if g == nil {
		return agent.SubAgents()
	}
	var out []runtime.Agent
	for _, n := range g.Nodes {
		if n.Kind == runtime.NodeAgent {
			out = append(out, n.Agent)
		}
	}
	return out
}

// plotFind finds the agent at path ("a/b", the root's name first or not),
// as ADK's _navigate_to_node does.
func plotFind(root runtime.Agent, path string) runtime.Agent {
	parts := strings.FieldsFunc(path, func(r rune) bool { return r == '/' })
	if len(parts) > 0 && parts[0] == root.Name() {
		parts = parts[1:]
	}
	cur := root
	for _, p := range parts {
		var found runtime.Agent
		for _, c := range plotChildren(cur) {
			if c.Name() == p {
				found = c
				break
			}
		}
		if found == nil {
			return nil
		}
		cur = found
	}
	return cur
}

// plotTools names an LLM agent's tools as the serialized app lists them.
func plotTools(agent runtime.Agent, remote map[string][]string) []string {
	l := runtime.Describe(agent).LLM
	if l == nil {
		return nil
	}
	var out []string
	for _, t := range l.Tools {
		out = append(out, t.Name())
	}
	return append(out, remote[agent.Name()]...)
}

// plotTree draws an agent that is not a workflow as ADK 2.x does: the
// agent and its sub-agents, each joined to its parent, with their tools.
func plotTree(root runtime.Agent, remote map[string][]string, theme plotTheme) string {
	var nodes []plotNode
	var edges []plotEdge
	var walk func(agent runtime.Agent)
	walk = func(agent runtime.Agent) {
		for _, sub := range agent.SubAgents() {
			nodes = append(nodes, plotNode{name: sub.Name(), kind: "agent", tools: plotTools(sub, remote)})
			edges = append(edges, plotEdge{from: agent.Name(), to: sub.Name()})
			walk(sub)
		}
	}
	nodes = append(nodes, plotNode{name: root.Name(), kind: "agent", tools: plotTools(root, remote)})
	walk(root)
	return plot(nodes, edges, false, theme)
}

// plotWorkflow draws a workflow's graph as ADK 2.x does: START, its nodes
// and edges (routes as labels), the agents' tools, and END after every
// node without a way out.
func plotWorkflow(w *runtime.GraphDescription, remote map[string][]string, theme plotTheme) string {
	var nodes []plotNode
	for _, n := range w.Nodes {
		pn := plotNode{name: n.Name, kind: "function"}
		switch n.Kind {
		case runtime.NodeAgent:
			pn.kind, pn.tools = "agent", plotTools(n.Agent, remote)
			if runtime.Describe(n.Agent).Kind == runtime.KindWorkflow {
				pn.kind = "workflow"
			}
		case runtime.NodeJoin:
			pn.kind = "join"
		case runtime.NodeTool:
			// ADK's tool node class (_ToolNode) has no type of its own.
			pn.kind = "node"
		}
		nodes = append(nodes, pn)
	}
	var edges []plotEdge
	for _, e := range w.Edges {
		from := e.From
		if from == runtime.GraphStart {
			from = "__START__"
		}
		pe := plotEdge{from: from, to: e.To}
		// ADK labels an edge whose route is truthy in Python, as str()
		// prints it.
		switch {
		case len(e.Routes) > 1:
			pe.label = pyfmt.Str(structpb.NewListValue(&structpb.ListValue{Values: e.Routes}))
		case len(e.Routes) == 1 && pyfmt.Truthy(e.Routes[0]):
			pe.label = pyfmt.Str(e.Routes[0])
		}
		pe.routed = pe.label != ""
		edges = append(edges, pe)
	}
	return plot(nodes, edges, true, theme)
}

// plot writes the DOT of nodes and edges as ADK 2.x's plot_workflow_graph
// writes it: top to bottom, rounded rectangles with an icon per node type,
// arrowheads, a node that picks routes drawn as a diamond.
func plot(nodes []plotNode, edges []plotEdge, workflow bool, theme plotTheme) string {
	var b strings.Builder
	b.WriteString("// Workflow Visualization\ndigraph {\n")
	b.WriteString(`	graph [bgcolor="` + theme.background + `" fontname=Helvetica nodesep=0.5 pad=0.5 ranksep=0.8 splines=spline]` + "\n")
	b.WriteString(`	node [color="` + theme.border + `" fillcolor="` + theme.fill + `" fontcolor="` + theme.font +
		`" fontname=Helvetica fontsize=12 margin="0.25,0.15" penwidth=1.5 shape=rect style="rounded,filled"]` + "\n")
	b.WriteString(`	edge [arrowhead=vee arrowsize=0.7 color="` + theme.edge + `" fontcolor="` + theme.edgeFont +
		`" fontname=Helvetica fontsize=10 penwidth=1.2]` + "\n")
	// The agents' tools are nodes of their own, each drawn once.
	declared := map[string]bool{}
	for _, n := range nodes {
		declared[n.name] = true
	}
	for _, n := range nodes {
		for _, t := range n.tools {
			if !declared[t] {
				declared[t] = true
				nodes = append(nodes, plotNode{name: t, kind: "tool"})
			}
			edges = append(edges, plotEdge{from: n.name, to: t, tool: true})
		}
	}
	for _, n := range nodes {
		plotNodeLine(&b, n, edges, theme)
	}
	for _, e := range edges {
		if e.from == "__START__" {
			b.WriteString(`	__START__ [label=START color="` + theme.startBorder + `" fillcolor="` + theme.startFill +
				`" fixedsize=true fontcolor="` + theme.font + `" fontname="Helvetica-Bold" shape=oval style=filled width=0.9]` + "\n")
		}
		b.WriteString("\t" + dotID(e.from) + " -> " + dotID(e.to))
		switch {
		case e.tool:
			b.WriteString(` [color="` + theme.edge + `" style=dashed]`)
		case e.label != "":
			b.WriteString(" [label=" + dotQuote("  "+e.label) + "]")
		default:
			b.WriteString(` [label=""]`)
		}
		b.WriteString("\n")
	}
	if workflow {
		var terminal []string
		for _, n := range nodes {
			if n.kind == "tool" {
				continue
			}
			if len(plotOut(n.name, edges)) == 0 {
				terminal = append(terminal, n.name)
			}
		}
		if len(terminal) > 0 {
			b.WriteString(`	__END__ [label=END color="` + theme.endBorder + `" fillcolor="` + theme.endFill +
				`" fixedsize=true fontcolor="` + theme.font + `" fontname="Helvetica-Bold" shape=oval style=filled width=0.9]` + "\n")
			for _, t := range terminal {
				b.WriteString("\t" + dotID(t) + " -> __END__\n")
			}
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// plotOut are the edges leaving name, tool edges left out.
func plotOut(name string, edges []plotEdge) []plotEdge {
	var out []plotEdge
	for _, e := range edges {
		if e.from == name && !e.tool {
			out = append(out, e)
		}
	}
	return out
}

// plotNodeLine writes one node: its icon and name, and its shape by type
// and by whether it picks routes (a diamond, flagged when no route is the
// default).
func plotNodeLine(b *strings.Builder, n plotNode, edges []plotEdge, theme plotTheme) {
	tooltip := dotID(strings.ToUpper(n.kind[:1]) + n.kind[1:])
	label := dotID(n.name)
	if icon, ok := plotIcons[n.kind]; ok {
		label = `<<FONT COLOR="` + icon[1] + `" POINT-SIZE="14">` + icon[0] + `</FONT> ` + html.EscapeString(n.name) + ">"
	}
	out := plotOut(n.name, edges)
	conditional, fallback := false, false
	for _, e := range out {
		conditional = conditional || e.routed
		fallback = fallback || !e.routed || e.label == runtime.GraphDefaultRoute
	}
	b.WriteString("\t" + dotID(n.name) + " [label=")
	switch {
	case conditional:
		if !fallback {
			label = strings.TrimSuffix(label, ">") + `<br/><br/><FONT POINT-SIZE="10">⚠️ [NO DEFAULT]</FONT>>`
		}
		b.WriteString(label + ` fillcolor="` + theme.fill + `" height=1.2 margin="0.0,0.0" shape=diamond style=filled tooltip=` +
			tooltip + " width=0.8]\n")
	case n.kind == "join":
		b.WriteString(label + ` fillcolor="` + theme.fill + `" margin="0.05,0.05" shape=oval style=filled tooltip=` + tooltip + "]\n")
	case n.kind == "tool":
		b.WriteString(label + ` fillcolor="` + theme.fill + `" style="rounded,filled,dashed" tooltip=` + tooltip + "]\n")
	default:
		b.WriteString(label + ` fillcolor="` + theme.fill + `" style="rounded,filled" tooltip=` + tooltip + "]\n")
	}
}

// dotKeywords are DOT's keywords, quoted wherever they are names.
var dotKeywords = map[string]bool{"node": true, "edge": true, "graph": true, "digraph": true, "subgraph": true, "strict": true}

// dotPlain matches the names DOT takes unquoted, as Python's graphviz
// package writes them.
var dotPlain = regexp.MustCompile(`^(?:[a-zA-Z_\x{80}-\x{ffff}][a-zA-Z_0-9\x{80}-\x{ffff}]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))$`)

// dotID is name as a DOT identifier, quoted unless it is a plain one.
func dotID(name string) string {
	if dotPlain.MatchString(name) && !dotKeywords[strings.ToLower(name)] {
		return name
	}
	return dotQuote(name)
}

// dotQuote is s as a quoted DOT string.
func dotQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}
