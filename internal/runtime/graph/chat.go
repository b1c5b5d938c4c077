package graph

import (
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// runChat runs a chat-mode LlmAgent node (mode chat, or sub-agents and no
// mode): it sees the conversation, not a node input, and its delegation
// calls run its task-mode sub-agents in scopes of their own, which its
// history leaves out. It has no output; a long-running call, its own or a
// task's, pauses the workflow.
func (r *run) runChat(n *Node, la *llmagent.Agent, path string, t trigger) outcome {
	ar := &agentRun{path: path, outputFor: func(p string) []string { return r.outputFor(n, p) }}
	if _, _, err := r.runLLM(t.ictx.WithIsolation(t.ictx.IsolationScope()), la, ar); err != nil {
		return outcome{err: err}
	}
	return outcome{path: ar.path, interrupts: ar.interrupts}
}
