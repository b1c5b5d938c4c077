package graph

import (
	"context"
	"slices"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// runAgent runs an agent node. An LlmAgent runs as ADK's single-turn node:
// its input is a user turn only its own request sees, and its final answer
// is its output (parsed by its output schema when it has one). Any other
// agent runs as it would as a sub-agent; a nested workflow's output is its
// terminal node's.
func (r *run) runAgent(n *Node, path string, t trigger) outcome {
	ictx := t.ictx.WithNodePath(path)
	la, isLLM := n.Agent.(*llmagent.Agent)
	if isLLM && la.IsChat() {
		return r.runChat(n, la, path, t)
	}
	if isLLM && la.IsTask() {
		// Placed directly (ADK 2.13): the task's events are the agent's.
		return r.runTaskNode(n, path, t)
	}
	if isLLM && t.resume == nil {
		if c := inputContent(t.in); c != nil {
			ictx = ictx.WithNodeInput(&v1.Event{Id: runtime.NewEventID(), InvocationId: ictx.InvocationID,
				Author: "user", Branch: ictx.Branch, Timestamp: runtime.Now(), Content: c})
		}
	}
	if _, nested := n.Agent.(*Workflow); nested {
		// A nested workflow starts from the node's input.
		ictx = ictx.WithContext(context.WithValue(ictx.Context(), nodeInputKey{}, t.in))
	}
	o := outcome{path: path}
	for ev, err := range runtime.RunAgent(ictx, n.Agent) {
		if err != nil {
			return outcome{err: err, reported: o.reported}
		}
		if !isLLM && ev.Output != nil && slices.Contains(ev.GetNodeInfo().GetOutputFor(), path) {
			o.output = ev.Output // a nested workflow's terminal output is its own
		}
		if isLLM && ev.GetAuthor() == la.Name() {
			if out, ok := llmOutput(la, ev); ok {
				o.output = out
				if ev.NodeInfo == nil {
					ev.NodeInfo = &v1.NodeInfo{}
				}
				ev.NodeInfo.OutputFor = r.itemOutputFor(n, ev.NodeInfo.GetPath(), t)
				if la.Config().OutputSchema == nil {
					on := true
					ev.NodeInfo.MessageAsOutput = &on // the content is the output
				} else {
					ev.Output = out
				}
			}
		}
		if len(ev.GetLongRunningToolIds()) > 0 {
			o.interrupts = append(o.interrupts, ev.GetLongRunningToolIds()...)
		}
		if t.retried && ev.GetErrorCode() != "" {
			// A failed attempt, which ADK reports as the workflow's.
			ev.Author, o.reported = r.w.cfg.Name, true
		}
		if !r.emit(ev) {
			return outcome{err: context.Canceled}
		}
	}
	return o
}

// llmOutput is an LlmAgent node's output from one of its events, as ADK's
// process_llm_agent_output: a final model answer's text without thoughts,
// parsed by the output schema; none for calls, partial or non-model
// events.
func llmOutput(la *llmagent.Agent, ev *v1.Event) (*structpb.Value, bool) {
	c := ev.GetContent()
	if c == nil || c.GetRole() != "model" || ev.GetPartial() || len(runtime.FunctionCalls(ev)) > 0 {
		return nil, false
	}
	text := llmagent.AnswerText(c)
	if la.Config().OutputSchema == nil {
		return structpb.NewStringValue(text), true
	}
	if strings.TrimSpace(text) == "" {
		return nil, true
	}
	return parseJSON(text), true
}
