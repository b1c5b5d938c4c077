// Package planners holds ADK's planners for LLM agents: [BuiltIn] sets the
// model's thinking config on every request, [PlanReAct] asks the model for a
// tagged plan and marks the planning parts of its answers as thought.
package planners

import (
	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// Planner shapes an LLM agent's model requests and answers: ADK's
// BasePlanner as its NL planning processors apply it. Implementations are
// safe for concurrent use.
type Planner interface {
	// ProcessRequest changes req once its contents are built (ADK's NL
	// planning request processor, after contents and before code
	// execution). It never changes what req's contents share with stored
	// events.
	ProcessRequest(req *v1.LlmRequest)
	// ProcessResponse returns the parts to keep of a model answer (ADK's
	// NL planning response processor, after the after-model callbacks), as
	// the app's ADK release line b does, or nil to keep the answer's parts
	// as they are. It may return parts of parts, never changes them.
	ProcessResponse(b runtime.Behavior, parts []*v1.Part) []*v1.Part
}
