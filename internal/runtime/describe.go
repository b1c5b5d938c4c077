package runtime

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// AgentKind is what sort of agent an [AgentDescription] describes: one of
// ADK's agent classes.
type AgentKind int

// Agent kinds.
const (
	// KindCustom is an agent that does not describe itself (ADK's
	// BaseAgent subclasses).
	KindCustom AgentKind = iota
	// KindLLM is ADK's LlmAgent.
	KindLLM
	// KindSequential is ADK's SequentialAgent.
	KindSequential
	// KindParallel is ADK's ParallelAgent.
	KindParallel
	// KindLoop is ADK's LoopAgent.
	KindLoop
	// KindWorkflow is ADK 2.x's graph Workflow.
	KindWorkflow
)

// Graph names that the description of a workflow's edges uses.
const (
	// GraphStart is the name of a workflow's entry, ADK's START node.
	GraphStart = "START"
	// GraphDefaultRoute is the route of an edge taken when no other routed
	// edge of its node matched, ADK's DEFAULT_ROUTE.
	GraphDefaultRoute = "__DEFAULT__"
)

// AgentDescription is what an agent tells the service's boundary about
// itself (app info, agent cards, the dev UI's graphs, the declarations a
// Connect client must make), so that the boundary never depends on the
// concrete agent types. Name, description and sub-agents come from
// [Agent] itself. A description shares the agent's slices and values:
// it must not be modified.
type AgentDescription struct {
	Kind AgentKind
	// LLM is an LLM agent's declaration; nil for other kinds.
	LLM *LLMDescription
	// MaxIterations is a loop agent's bound on rounds, zero for none.
	MaxIterations int
	// Graph is a graph workflow's nodes and edges; nil for other kinds.
	Graph *GraphDescription
}

// LLMDescription is an LLM agent's declaration as the boundary reads it.
type LLMDescription struct {
	// Model is the model name; empty inherits the parent's.
	Model             string
	Instruction       string
	StaticInstruction string
	GlobalInstruction string
	// Tools are the agent's tools in order, those its mode adds included.
	Tools []Tool
	// AgentTools are the agents its agent tools run, in the tools' order.
	AgentTools []Agent
	OutputKey  string
	// IncludeContents is ADK's include_contents as declared: "",
	// "default" or "none".
	IncludeContents          string
	DisallowTransferToParent bool
	DisallowTransferToPeers  bool
	// GenerateContentConfig is copied into every model request; nil for
	// none.
	GenerateContentConfig *v1.GenerateContentConfig
	// ClientCode reports whether its code executor runs in the client.
	ClientCode bool
}

// NodeKind is what a workflow node runs.
type NodeKind int

// Node kinds.
const (
	// NodeFunction runs a function of the client's, over Connect.
	NodeFunction NodeKind = iota + 1
	// NodeAgent runs an agent, a nested workflow included.
	NodeAgent
	// NodeJoin waits for all its predecessors.
	NodeJoin
	// NodeTool runs a tool.
	NodeTool
	// NodeTask runs a task-mode LLM agent inside a node of its own name.
	NodeTask
)

// GraphDescription is a graph workflow's nodes, in declaration order, and
// edges.
type GraphDescription struct {
	Nodes []GraphNode
	Edges []GraphEdge
}

// GraphNode is a node of a [GraphDescription].
type GraphNode struct {
	Name string
	Kind NodeKind
	// Function is the client function's declared name (NodeFunction).
	Function string
	// Agent is the node's agent (NodeAgent and NodeTask).
	Agent Agent
}

// GraphEdge is an edge of a [GraphDescription]: From is [GraphStart] for
// the workflow's entry; Routes are the bool, number or string values that
// take it, none for an edge always taken.
type GraphEdge struct {
	From, To string
	Routes   []*structpb.Value
}

// Describer is an agent that describes itself; ADK's agent classes all
// do.
type Describer interface {
	Describe() AgentDescription
}

// Describe returns a's description: its own when it is a [Describer], else
// that of a custom agent.
func Describe(a Agent) AgentDescription {
	if d, ok := a.(Describer); ok {
		return d.Describe()
	}
	return AgentDescription{Kind: KindCustom}
}
