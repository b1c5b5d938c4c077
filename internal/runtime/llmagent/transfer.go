package llmagent

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// transferToolName is the function the model calls to hand the question to
// another agent.
const transferToolName = "transfer_to_agent"

// transferToolDescription is the docstring of ADK 1.x's transfer_to_agent
// function as written, indentation and the note on TransferToAgentTool
// included: ADK 1.x declares it so.
const transferToolDescription = "Transfer the question to another agent.\n\n" +
	"  This tool hands off control to another agent when it's more suitable to\n" +
	"  answer the user's question according to the agent's description.\n\n" +
	"  Note:\n" +
	"    For most use cases, you should use TransferToAgentTool instead of this\n" +
	"    function directly. TransferToAgentTool provides additional enum constraints\n" +
	"    that prevent LLMs from hallucinating invalid agent names.\n\n" +
	"  Args:\n    agent_name: the agent name to transfer to.\n  "

// transferToolDescription2x is ADK 2.x's TransferToAgentTool description:
// the cleaned docstring of its function without a transfer reason.
const transferToolDescription2x = "Transfer the query to another agent.\n\n" +
	"Use this tool to hand off control to another agent that is more suitable to\n" +
	"answer the user's query according to the agent's description.\n\n" +
	"Args:\n  agent_name: the agent name to transfer to."

// transferTargets lists the agents a may hand over to, in ADK's order: its
// sub-agents, then its parent and the parent's other children when the
// parent is an LLM agent and the agent allows it.
func (a *Agent) transferTargets(tree *runtime.Tree) []runtime.Agent {
	targets := slices.DeleteFunc(slices.Clone(a.cfg.SubAgents), isDelegatedAgent)
	parent, ok := tree.Parent(a.cfg.Name).(*Agent)
	if !ok {
		return targets
	}
	if !a.cfg.DisallowTransferToParent {
		targets = append(targets, parent)
	}
	if !a.cfg.DisallowTransferToPeers {
		for _, peer := range parent.cfg.SubAgents {
			if peer.Name() != a.cfg.Name && !isDelegatedAgent(peer) {
				targets = append(targets, peer)
			}
		}
	}
	return targets
}

// agentTransfer is ADK's agent-transfer processor: it tells the model which
// agents it may transfer to and offers the transfer_to_agent tool, whose
// agent_name is limited to them.
func (a *Agent) agentTransfer(ictx *runtime.InvocationContext, r *request) {
	tree := ictx.App().Tree
	targets := a.transferTargets(tree)
	if len(targets) == 0 {
		return
	}
	if !isDelegatedMode(a.cfg.Mode) {
		runtime.AppendInstruction(r.llm, a.transferInstruction(tree, targets))
	}
	tool := newTransferTool(targets, ictx.App().Behavior)
	r.procTools = append(r.procTools, tool)
	r.addTool(transferToolName, tool)
}

// transferInstruction is ADK's text, character for character.
func (a *Agent) transferInstruction(tree *runtime.Tree, targets []runtime.Agent) string {
	var b strings.Builder
	b.WriteString("\nYou have a list of other agents to transfer to:\n\n")
	names := make([]string, len(targets))
	for i, t := range targets {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("\nAgent name: " + t.Name() + "\nAgent description: " + t.Description() + "\n")
		names[i] = t.Name()
	}
	slices.Sort(names)
	b.WriteString("\n\nIf you are the best to answer the question according to your description,\n" +
		"you can answer it.\n\n" +
		"If another agent is better for answering the question according to its\n" +
		"description, call `" + transferToolName + "` function to transfer the question to that\n" +
		"agent. When transferring, do not generate any text other than the function\n" +
		"call.\n\n" +
		"**NOTE**: the only available agents for `" + transferToolName + "` function are\n")
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("`" + n + "`")
	}
	b.WriteString(".\n")
	if parent := tree.Parent(a.cfg.Name); parent != nil && !a.cfg.DisallowTransferToParent {
		b.WriteString("\nIf neither you nor the other agents are best for the question, transfer to your parent agent " +
			parent.Name() + ".\n")
	}
	return b.String()
}

// transferTool sets actions.transfer_to_agent; the flow then runs the target.
type transferTool struct {
	description string
	decl        *v1.FunctionDeclaration
}

func newTransferTool(targets []runtime.Agent, b runtime.Behavior) *transferTool {
	enum := make([]*structpb.Value, len(targets))
	for i, t := range targets {
		enum[i] = structpb.NewStringValue(t.Name())
	}
	agentName := map[string]*structpb.Value{
		"type": structpb.NewStringValue("string"),
		"enum": structpb.NewListValue(&structpb.ListValue{Values: enum}),
	}
	params := map[string]*structpb.Value{
		"type": structpb.NewStringValue("object"),
		"properties": structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
			"agent_name": structpb.NewStructValue(&structpb.Struct{Fields: agentName}),
		}}),
		"required": structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{structpb.NewStringValue("agent_name")}}),
	}
	description := transferToolDescription
	if b == runtime.Behavior2x {
		// ADK 2.x declares the JSON schema pydantic derives from the
		// function's signature, titles included.
		description = transferToolDescription2x
		agentName["title"] = structpb.NewStringValue("Agent Name")
		params["title"] = structpb.NewStringValue(transferToolName + "Params")
	}
	decl := tools.Declaration(transferToolName, description, &structpb.Struct{Fields: params}, nil, false)
	if b == runtime.Behavior2x {
		// ... and sends it as a JSON schema, not as the API's Schema.
		decl.ParametersJsonSchema = structpb.NewStructValue(decl.Parameters)
		decl.Parameters = nil
	}
	return &transferTool{description: description, decl: decl}
}

func (t *transferTool) Name() string                         { return transferToolName }
func (t *transferTool) Description() string                  { return t.description }
func (t *transferTool) Declaration() *v1.FunctionDeclaration { return t.decl }
func (t *transferTool) IsLongRunning() bool                  { return false }

// Run records the transfer; like ADK's function it returns nothing, which
// the model sees as {"result": null}.
func (t *transferTool) Run(tctx *runtime.ToolContext, args *structpb.Struct) (any, error) {
	if resp := tools.MissingArgs(transferToolName, []string{"agent_name"}, args); resp != nil {
		return resp, nil
	}
	tctx.Actions.TransferToAgent = args.Fields["agent_name"].GetStringValue()
	return nil, nil
}
