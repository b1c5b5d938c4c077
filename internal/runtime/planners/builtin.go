package planners

import (
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// BuiltIn is ADK's BuiltInPlanner: the model's own thinking, configured on
// every request. It adds no instruction and leaves answers as they are.
type BuiltIn struct {
	// ThinkingConfig replaces the request's thinking config, the agent's
	// generate_content_config one included; nil changes nothing.
	ThinkingConfig *v1.ThinkingConfig
}

// ProcessRequest implements [Planner]: ADK's apply_thinking_config.
func (b *BuiltIn) ProcessRequest(req *v1.LlmRequest) {
	if b.ThinkingConfig == nil {
		return
	}
	if req.Config == nil {
		req.Config = &v1.GenerateContentConfig{}
	}
	req.Config.ThinkingConfig = proto.CloneOf(b.ThinkingConfig)
}

// ProcessResponse implements [Planner]: the answer stays as it is.
func (*BuiltIn) ProcessResponse(runtime.Behavior, []*v1.Part) []*v1.Part { return nil }
