package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
)

// Plugin holds callbacks that apply to every agent, model call and tool of
// an app. Nil fields are skipped. For each hook the plugins run in order and
// the first non-nil result ends the chain and skips the agent's own
// callbacks.
type Plugin struct {
	// Name is unique among an app's plugins.
	Name string

	OnUserMessage func(ictx *InvocationContext, msg *v1.Content) (*v1.Content, error)
	BeforeRun     func(ictx *InvocationContext) (*v1.Content, error)
	OnEvent       func(ictx *InvocationContext, ev *v1.Event) (*v1.Event, error)
	AfterRun      func(ictx *InvocationContext) error

	BeforeAgent func(agent Agent, cctx *CallbackContext) (*v1.Content, error)
	AfterAgent  func(agent Agent, cctx *CallbackContext) (*v1.Content, error)

	BeforeModel  func(cctx *CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error)
	AfterModel   func(cctx *CallbackContext, resp *v1.LlmResponse) (*v1.LlmResponse, error)
	OnModelError func(cctx *CallbackContext, req *v1.LlmRequest, err error) (*v1.LlmResponse, error)
	// Model may stand in for the model named name in the agent's call
	// (ictx.Agent): a model it returns answers that call instead, with the
	// model callbacks and the call's trace as usual. Conformance replay
	// uses it.
	Model func(ictx *InvocationContext, name string) (models.Model, error)

	BeforeTool  func(tctx *ToolContext, tool Tool, args *structpb.Struct) (*structpb.Struct, error)
	AfterTool   func(tctx *ToolContext, tool Tool, args, result *structpb.Struct) (*structpb.Struct, error)
	OnToolError func(tctx *ToolContext, tool Tool, args *structpb.Struct, err error) (*structpb.Struct, error)

	// Close releases the plugin's resources when the app shuts down.
	Close func(ctx context.Context) error
}

// Plugins runs an app's plugins. The zero value has none. Safe for
// concurrent use.
type Plugins struct {
	list []*Plugin
}

// NewPlugins returns the plugin chain, rejecting duplicate names.
func NewPlugins(list ...*Plugin) (*Plugins, error) {
	seen := map[string]bool{}
	for _, p := range list {
		if p.Name == "" {
			return nil, errors.New("plugin without a name")
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("plugin %q is registered twice", p.Name)
		}
		seen[p.Name] = true
	}
	return &Plugins{list: list}, nil
}

// With returns the chain followed by more plugins.
func (ps *Plugins) With(more ...*Plugin) (*Plugins, error) {
	var list []*Plugin
	if ps != nil {
		list = append(list, ps.list...)
	}
	return NewPlugins(append(list, more...)...)
}

// first runs call over the plugins until one returns a non-nil result.
func first[T any](ps *Plugins, hook string, call func(p *Plugin) (*T, bool, error)) (*T, error) {
	if ps == nil {
		return nil, nil
	}
	for _, p := range ps.list {
		r, ran, err := call(p)
		if !ran {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("plugin %s %s: %w", p.Name, hook, err)
		}
		if r != nil {
			return r, nil
		}
	}
	return nil, nil
}

// OnUserMessage lets plugins replace the user's message.
func (ps *Plugins) OnUserMessage(ictx *InvocationContext, msg *v1.Content) (*v1.Content, error) {
	return first(ps, "on_user_message", func(p *Plugin) (*v1.Content, bool, error) {
		if p.OnUserMessage == nil {
			return nil, false, nil
		}
		r, err := p.OnUserMessage(ictx, msg)
		return r, true, err
	})
}

// BeforeRun may end the invocation early with a reply.
func (ps *Plugins) BeforeRun(ictx *InvocationContext) (*v1.Content, error) {
	return first(ps, "before_run", func(p *Plugin) (*v1.Content, bool, error) {
		if p.BeforeRun == nil {
			return nil, false, nil
		}
		r, err := p.BeforeRun(ictx)
		return r, true, err
	})
}

// OnEvent may replace an event before it reaches the caller.
func (ps *Plugins) OnEvent(ictx *InvocationContext, ev *v1.Event) (*v1.Event, error) {
	return first(ps, "on_event", func(p *Plugin) (*v1.Event, bool, error) {
		if p.OnEvent == nil {
			return nil, false, nil
		}
		r, err := p.OnEvent(ictx, ev)
		return r, true, err
	})
}

// AfterRun runs every plugin's after-run hook.
func (ps *Plugins) AfterRun(ictx *InvocationContext) error {
	if ps == nil {
		return nil
	}
	for _, p := range ps.list {
		if p.AfterRun != nil {
			if err := p.AfterRun(ictx); err != nil {
				return fmt.Errorf("plugin %s after_run: %w", p.Name, err)
			}
		}
	}
	return nil
}

// BeforeAgent may skip an agent with a reply.
func (ps *Plugins) BeforeAgent(agent Agent, cctx *CallbackContext) (*v1.Content, error) {
	return first(ps, "before_agent", func(p *Plugin) (*v1.Content, bool, error) {
		if p.BeforeAgent == nil {
			return nil, false, nil
		}
		r, err := p.BeforeAgent(agent, cctx)
		return r, true, err
	})
}

// AfterAgent may add a reply after an agent.
func (ps *Plugins) AfterAgent(agent Agent, cctx *CallbackContext) (*v1.Content, error) {
	return first(ps, "after_agent", func(p *Plugin) (*v1.Content, bool, error) {
		if p.AfterAgent == nil {
			return nil, false, nil
		}
		r, err := p.AfterAgent(agent, cctx)
		return r, true, err
	})
}

// BeforeModel may answer instead of the model.
func (ps *Plugins) BeforeModel(cctx *CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
	return first(ps, "before_model", func(p *Plugin) (*v1.LlmResponse, bool, error) {
		if p.BeforeModel == nil {
			return nil, false, nil
		}
		r, err := p.BeforeModel(cctx, req)
		return r, true, err
	})
}

// Model returns the model a plugin puts in place of the model named name
// for the agent's next call, or nil.
func (ps *Plugins) Model(ictx *InvocationContext, name string) (models.Model, error) {
	if ps == nil {
		return nil, nil
	}
	for _, p := range ps.list {
		if p.Model == nil {
			continue
		}
		m, err := p.Model(ictx, name)
		if err != nil {
			return nil, fmt.Errorf("plugin %s model: %w", p.Name, err)
		}
		if m != nil {
			return m, nil
		}
	}
	return nil, nil
}

// AfterModel may replace the model's response.
func (ps *Plugins) AfterModel(cctx *CallbackContext, resp *v1.LlmResponse) (*v1.LlmResponse, error) {
	return first(ps, "after_model", func(p *Plugin) (*v1.LlmResponse, bool, error) {
		if p.AfterModel == nil {
			return nil, false, nil
		}
		r, err := p.AfterModel(cctx, resp)
		return r, true, err
	})
}

// OnModelError may answer instead of a failed model call.
func (ps *Plugins) OnModelError(cctx *CallbackContext, req *v1.LlmRequest, cause error) (*v1.LlmResponse, error) {
	return first(ps, "on_model_error", func(p *Plugin) (*v1.LlmResponse, bool, error) {
		if p.OnModelError == nil {
			return nil, false, nil
		}
		r, err := p.OnModelError(cctx, req, cause)
		return r, true, err
	})
}

// BeforeTool may answer instead of the tool.
func (ps *Plugins) BeforeTool(tctx *ToolContext, tool Tool, args *structpb.Struct) (*structpb.Struct, error) {
	return first(ps, "before_tool", func(p *Plugin) (*structpb.Struct, bool, error) {
		if p.BeforeTool == nil {
			return nil, false, nil
		}
		r, err := p.BeforeTool(tctx, tool, args)
		return r, true, err
	})
}

// AfterTool may replace a tool's result.
func (ps *Plugins) AfterTool(tctx *ToolContext, tool Tool, args, result *structpb.Struct) (*structpb.Struct, error) {
	return first(ps, "after_tool", func(p *Plugin) (*structpb.Struct, bool, error) {
		if p.AfterTool == nil {
			return nil, false, nil
		}
		r, err := p.AfterTool(tctx, tool, args, result)
		return r, true, err
	})
}

// OnToolError may answer instead of a failed tool.
func (ps *Plugins) OnToolError(tctx *ToolContext, tool Tool, args *structpb.Struct, cause error) (*structpb.Struct, error) {
	return first(ps, "on_tool_error", func(p *Plugin) (*structpb.Struct, bool, error) {
		if p.OnToolError == nil {
			return nil, false, nil
		}
		r, err := p.OnToolError(tctx, tool, args, cause)
		return r, true, err
	})
}

// Close closes every plugin, returning the errors joined.
func (ps *Plugins) Close(ctx context.Context) error {
	if ps == nil {
		return nil
	}
	var errs []error
	for _, p := range ps.list {
		if p.Close != nil {
			if err := p.Close(ctx); err != nil {
				errs = append(errs, fmt.Errorf("plugin %s close: %w", p.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// has reports whether a plugin of the chain has a hook, as hook tells.
func (ps *Plugins) has(hook func(*Plugin) bool) bool {
	return ps != nil && slices.ContainsFunc(ps.list, hook)
}

// SeeModelRequests reports whether a plugin reads model requests (a
// before-model or on-model-error hook).
func (ps *Plugins) SeeModelRequests() bool {
	if ps == nil {
		return false
	}
	for _, p := range ps.list {
		if p.BeforeModel != nil || p.OnModelError != nil {
			return true
		}
	}
	return false
}

// Names returns the plugins' names, in order.
func (ps *Plugins) Names() []string {
	if ps == nil {
		return nil
	}
	names := make([]string, len(ps.list))
	for i, p := range ps.list {
		names[i] = p.Name
	}
	return names
}
