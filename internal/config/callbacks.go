package config

import (
	"fmt"
	"strings"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/clientcb"
)

// callbackField is one *_callbacks entry of an agent.
type callbackField struct {
	field string
	kind  runtime.CallbackKind
	refs  CallbackRefs
}

// callbackFields returns the agent's callback entries in the order of the
// kinds; an unset entry has no refs.
func (c *AgentConfig) callbackFields() []callbackField {
	onModelError := callbackField{"on_model_error_callbacks", runtime.CallbackOnModelError, c.OnModelErrorCallbacks}
	if len(c.OnModelErrorCallback) > 0 {
		onModelError = callbackField{"on_model_error_callback", runtime.CallbackOnModelError, c.OnModelErrorCallback}
	}
	return []callbackField{
		{"before_agent_callbacks", runtime.CallbackBeforeAgent, c.BeforeAgentCallbacks},
		{"after_agent_callbacks", runtime.CallbackAfterAgent, c.AfterAgentCallbacks},
		{"before_model_callbacks", runtime.CallbackBeforeModel, c.BeforeModelCallbacks},
		{"after_model_callbacks", runtime.CallbackAfterModel, c.AfterModelCallbacks},
		onModelError,
		{"before_tool_callbacks", runtime.CallbackBeforeTool, c.BeforeToolCallbacks},
		{"after_tool_callbacks", runtime.CallbackAfterTool, c.AfterToolCallbacks},
		{"on_tool_error_callbacks", runtime.CallbackOnToolError, c.OnToolErrorCallbacks},
	}
}

// boundCallbacks are an agent's callbacks, bound to the client's.
type boundCallbacks struct {
	agent runtime.AgentCallbacks
	model runtime.ModelCallbacks
	tool  runtime.ToolCallbacks
	info  []*api.CallbackInfo
}

// buildCallbacks binds the agent's callback entries to client callbacks,
// each kind's in the order the entry lists them.
func buildCallbacks(c *AgentConfig) (*boundCallbacks, error) {
	if len(c.OnModelErrorCallbacks) > 0 && len(c.OnModelErrorCallback) > 0 {
		return nil, fmt.Errorf("%s: on_model_error_callback: set it or on_model_error_callbacks, not both", c.file)
	}
	out := &boundCallbacks{}
	for _, f := range c.callbackFields() {
		for i, ref := range f.refs {
			field := fmt.Sprintf("%s[%d]", f.field, i)
			for k := range ref.Extra {
				return nil, fmt.Errorf("%s: %s.%s: unknown field", c.file, field, k)
			}
			name := clientcb.Name(ref.Name)
			switch {
			case ref.Name == "":
				return nil, fmt.Errorf("%s: %s.name: required", c.file, field)
			case !functionName.MatchString(name) || strings.ContainsAny(name, ":-"):
				return nil, fmt.Errorf("%s: %s.name: %q does not end in a function name", c.file, field, ref.Name)
			case len(ref.Args) > 0:
				return nil, fmt.Errorf("%s: %s.args: callback %q lives in the client, which binds it by name; it takes no args",
					c.file, field, ref.Name)
			}
			out.add(clientcb.Callback{Name: name, Kind: f.kind})
			out.info = append(out.info, &api.CallbackInfo{Name: name, Field: f.field})
		}
	}
	return out, nil
}

func (b *boundCallbacks) add(cb clientcb.Callback) {
	switch cb.Kind {
	case runtime.CallbackBeforeAgent:
		b.agent.Before = append(b.agent.Before, cb.BeforeAgent())
	case runtime.CallbackAfterAgent:
		b.agent.After = append(b.agent.After, cb.AfterAgent())
	case runtime.CallbackBeforeModel:
		b.model.Before = append(b.model.Before, cb.BeforeModel())
	case runtime.CallbackAfterModel:
		b.model.After = append(b.model.After, cb.AfterModel())
	case runtime.CallbackOnModelError:
		b.model.OnError = append(b.model.OnError, cb.OnModelError())
	case runtime.CallbackBeforeTool:
		b.tool.Before = append(b.tool.Before, cb.BeforeTool())
	case runtime.CallbackAfterTool:
		b.tool.After = append(b.tool.After, cb.AfterTool())
	case runtime.CallbackOnToolError:
		b.tool.OnError = append(b.tool.OnError, cb.OnToolError())
	}
}
