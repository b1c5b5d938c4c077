package llmagent

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// planRequest lets the agent's planner shape the request once its contents
// are built (ADK's NL planning request processor).
func (a *Agent) planRequest(req *v1.LlmRequest) {
	if a.cfg.Planner != nil {
		a.cfg.Planner.ProcessRequest(req)
	}
}

// planResponse lets the agent's planner rework a model answer, partial
// chunks included (ADK's NL planning response processor). The answer gets
// content of its own: a model's stream may still hold the one it had.
func (a *Agent) planResponse(ictx *runtime.InvocationContext, resp *v1.LlmResponse) {
	if a.cfg.Planner == nil || len(resp.GetContent().GetParts()) == 0 {
		return
	}
	if parts := a.cfg.Planner.ProcessResponse(ictx.App().Behavior, resp.Content.Parts); parts != nil {
		resp.Content = &v1.Content{Role: resp.Content.Role, Parts: parts}
	}
}
