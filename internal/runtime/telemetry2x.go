package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Attribute keys and values ADK 2.13 adds (google/adk/telemetry, its
// default telemetry schema, aligned with OpenTelemetry's GenAI semantic
// conventions).
const (
	attrProviderName      = attribute.Key("gen_ai.provider.name")
	attrWorkflowName      = attribute.Key("gen_ai.workflow.name")
	attrWorkflowNested    = attribute.Key("gen_ai.workflow.nested")
	attrToolDefinitions   = attribute.Key("gen_ai.tool.definitions")
	attrToolCallArguments = attribute.Key("gen_ai.tool.call.arguments")
	attrToolCallResult    = attribute.Key("gen_ai.tool.call.result")
	attrAssociatedEvents  = attribute.Key("gcp.vertex.agent.associated_event_ids")
	operationWorkflow     = "invoke_workflow"
	operationNode         = "invoke_node"
	operationGenerate     = "generate_content"
)

// spans2x reports whether ictx's app names its spans as ADK 2.13 does:
// "invoke_workflow <root>" for the invocation, "generate_content <model>"
// beside the tools it called instead of "call_llm" around them, and
// "invoke_node <name>" for a workflow's nodes that are not agents.
func (ictx *InvocationContext) spans2x() bool { return ictx.inv.app.Behavior == Behavior2x }

// isWorkflow reports whether agent is ADK 2.x's graph Workflow, which runs
// inside an invoke_workflow span rather than an invoke_agent one.
func isWorkflow(agent Agent) bool {
	rr, ok := agent.(RootRunner)
	return ok && rr.RunsEveryInvocation()
}

// workflowSpan is the start option of ADK 2.13's "invoke_workflow <name>"
// span: the invocation's (the root's name), or a nested workflow's.
func workflowSpan(ictx *InvocationContext, name string, nested bool) (string, trace.SpanStartOption) {
	attrs := []attribute.KeyValue{attrOperation.String(operationWorkflow), attrConversationID.String(ictx.SessionID())}
	if nested {
		attrs = append(attrs, attrWorkflowNested.Bool(true))
	}
	if name == "" {
		return operationWorkflow, trace.WithAttributes(attrs...)
	}
	return operationWorkflow + " " + name, trace.WithAttributes(append(attrs, attrWorkflowName.String(name))...)
}

// startAgent2x starts the span of agent in a 2.x app: none for the root
// workflow, which runs in the invocation's invoke_workflow span; a nested
// workflow's invoke_workflow span; otherwise false, the agent's
// invoke_agent span.
func (t *Telemetry) startAgent2x(ictx *InvocationContext, agent Agent) (context.Context, trace.Span, bool) {
	if !isWorkflow(agent) {
		return nil, nil, false
	}
	if agent == ictx.inv.app.Tree.Root() {
		return ictx.ctx, noSpan, true
	}
	name, opt := workflowSpan(ictx, agent.Name(), true)
	ctx, span := t.tracer.Start(ictx.ctx, name, ictx.owner(), opt)
	return ctx, span, true
}

// generateContentAttrs are the attributes ADK 2.13 sets when it starts a
// "generate_content <model>" span.
func generateContentAttrs(ictx *InvocationContext, req *v1.LlmRequest) []attribute.KeyValue {
	attrs := append(make([]attribute.KeyValue, 0, 10),
		attrOperation.String(operationGenerate),
		attrRequestModel.String(req.GetModel()),
	)
	if cfg := req.GetConfig(); cfg != nil {
		if cfg.TopP != nil {
			attrs = append(attrs, attrTopP.Float64(float64(*cfg.TopP)))
		}
		if cfg.MaxOutputTokens != nil {
			attrs = append(attrs, attrMaxTokens.Int(int(*cfg.MaxOutputTokens)))
		}
	}
	if ictx.Agent != nil {
		attrs = append(attrs, attrAgentName.String(ictx.Agent.Name()))
	}
	attrs = append(attrs,
		attrConversationID.String(ictx.SessionID()),
		attrInvocationID.String(ictx.InvocationID),
		attrProviderName.String(providerName(req.GetModel())),
	)
	if defs := toolDefinitions(req); defs != "" {
		attrs = append(attrs, attrToolDefinitions.String(defs))
	}
	return attrs
}

// providerName is gen_ai.provider.name of a model as ADK 2.13 derives it:
// the provider of a "<provider>/<model>" id, anthropic for Claude, and
// otherwise Gemini.
func providerName(model string) string {
	name := model
	if i := strings.LastIndex(model, "models/"); i >= 0 {
		name = model[i+len("models/"):]
	}
	switch {
	case strings.HasPrefix(name, "gemini"):
		return "gcp.gemini"
	case strings.HasPrefix(name, "claude-"):
		return "anthropic"
	}
	if p, _, ok := strings.Cut(name, "/"); ok && p != "" && p != "projects" && p != "locations" {
		return strings.ToLower(p)
	}
	return "gcp.gemini"
}

// toolDefinitions is gen_ai.tool.definitions as ADK 2.13 records it
// without message content: each function's name and description, its
// parameters left out; empty without functions.
func toolDefinitions(req *v1.LlmRequest) string {
	type definition struct {
		Name        string  `json:"name"`
		Description *string `json:"description"`
		Parameters  any     `json:"parameters"`
		Type        string  `json:"type"`
	}
	var defs []definition
	for _, t := range req.GetConfig().GetTools() {
		for _, fd := range t.GetFunctionDeclarations() {
			d := definition{Name: fd.GetName(), Type: "function"}
			if fd.Description != "" {
				desc := fd.GetDescription()
				d.Description = &desc
			}
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(defs); err != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// NodeSpan is the trace of one run of a workflow node that is not an agent:
// ADK 2.13's "invoke_node <name>" span.
type NodeSpan struct {
	span   trace.Span
	events []string
}

// StartNode starts the span of a run of the workflow node name and returns
// the context the node runs in. The span is nil when spans are off or the
// app is not 2.x; its methods then do nothing.
func (ictx *InvocationContext) StartNode(name string) (*InvocationContext, *NodeSpan) {
	tel := ictx.inv.tel
	if tel == nil || tel.tracer == nil || !ictx.spans2x() {
		return ictx, nil
	}
	ctx, span := tel.tracer.Start(ictx.ctx, operationNode+" "+name, ictx.owner(), trace.WithAttributes(
		attrOperation.String(operationNode), attrConversationID.String(ictx.SessionID())))
	return ictx.WithContext(ctx), &NodeSpan{span: span}
}

// Event records an event the node emitted.
func (n *NodeSpan) Event(ev *v1.Event) {
	if n != nil && ev != nil {
		n.events = append(n.events, ev.GetId())
	}
}

// End ends the node's span, failed with err when it is not nil.
func (n *NodeSpan) End(err error) {
	if n == nil {
		return
	}
	if len(n.events) > 0 && n.span.IsRecording() {
		n.span.SetAttributes(attrAssociatedEvents.StringSlice(n.events))
	}
	failSpan(n.span, err)
	n.span.End()
}
