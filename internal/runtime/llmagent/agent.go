// Package llmagent is ADK's LlmAgent: an agent that answers with a language
// model, calling tools in a loop (the ReAct flow) until the model gives a
// final answer.
package llmagent

import (
	"errors"
	"fmt"
	"iter"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/retry"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/codeexec"
	"github.com/agentsvc/agentsvc/internal/runtime/planners"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// IncludeContents values.
const (
	// IncludeDefault sends the agent's whole visible history.
	IncludeDefault = "default"
	// IncludeNone sends only the current turn.
	IncludeNone = "none"
)

// Config declares an LLM agent. Zero values are ADK's defaults.
type Config struct {
	Name        string
	Description string
	// Model is the model name, resolved per invocation.
	Model string
	// Instruction may reference state as {key}, {key?} or {artifact.name}.
	Instruction string
	// StaticInstruction is sent verbatim; when set, Instruction goes into the
	// contents instead of the system instruction.
	StaticInstruction string
	// GlobalInstruction applies to every agent of the tree when set on the
	// root.
	GlobalInstruction string
	Tools             []runtime.Tool
	Toolsets          []runtime.Toolset
	SubAgents         []runtime.Agent
	// OutputKey saves the agent's final text (or parsed output) to state.
	OutputKey string
	// OutputSchema is the JSON schema of the agent's answer.
	OutputSchema *structpb.Struct
	// OutputOrder is the written order of OutputSchema's properties, which
	// a task's output validation reports in; nil sorts them.
	OutputOrder *tools.KeyOrder
	// Mode is the agent's mode as an ADK 2.x workflow node: empty,
	// ModeSingleTurn, ModeTask or ModeChat.
	Mode string
	// IncludeContents is IncludeDefault (empty) or IncludeNone.
	IncludeContents string
	// SingleTurn runs the agent as an ADK 2.x single-turn workflow node,
	// whose requests carry its instructions without the identity
	// sentence.
	SingleTurn               bool
	DisallowTransferToParent bool
	DisallowTransferToPeers  bool
	// GenerateContentConfig is copied into every model request.
	GenerateContentConfig *v1.GenerateContentConfig
	// Planner, when set, shapes each model request and answer (ADK's
	// planner); its thinking config wins over GenerateContentConfig's.
	Planner planners.Planner
	// CodeExecutor runs the code the model writes; nil runs none.
	CodeExecutor *codeexec.Executor

	AgentCallbacks runtime.AgentCallbacks
	ModelCallbacks runtime.ModelCallbacks
	ToolCallbacks  runtime.ToolCallbacks
	// Retry, when set, is the policy of the agent's model calls (its
	// retry_config); nil leaves the model's own.
	Retry *retry.Config
}

// Agent is an LLM agent. It is immutable and safe for concurrent use.
type Agent struct {
	cfg Config
	// finish is a task-mode agent's finish_task tool.
	finish *finishTaskTool
	// toolIndex indexes cfg.Tools by name; requests share it until a
	// processor adds a tool.
	toolIndex map[string]runtime.Tool
}

// New validates cfg and returns the agent.
func New(cfg Config) (*Agent, error) {
	if cfg.Name == "" {
		return nil, errors.New("llmagent: name is required")
	}
	if cfg.Name == "user" {
		return nil, errors.New(`llmagent: "user" is reserved for the end user`)
	}
	switch cfg.IncludeContents {
	case "", IncludeDefault, IncludeNone:
	default:
		return nil, fmt.Errorf("llmagent: include_contents must be %q or %q, got %q", IncludeDefault, IncludeNone, cfg.IncludeContents)
	}
	switch cfg.Mode {
	case "", ModeSingleTurn, ModeTask, ModeChat:
	default:
		return nil, fmt.Errorf("llmagent %s: mode must be %q, %q or %q, got %q", cfg.Name, ModeSingleTurn, ModeTask, ModeChat, cfg.Mode)
	}
	finish, extra := modeTools(&cfg)
	if len(extra) > 0 {
		cfg.Tools = append(cfg.Tools[:len(cfg.Tools):len(cfg.Tools)], extra...)
	}
	index := make(map[string]runtime.Tool, len(cfg.Tools))
	for _, t := range cfg.Tools {
		if index[t.Name()] != nil {
			return nil, fmt.Errorf("llmagent %s: tool %q is declared twice", cfg.Name, t.Name())
		}
		index[t.Name()] = t
	}
	return &Agent{cfg: cfg, finish: finish, toolIndex: index}, nil
}

// Name implements [runtime.Agent].
func (a *Agent) Name() string { return a.cfg.Name }

// Description implements [runtime.Agent].
func (a *Agent) Description() string { return a.cfg.Description }

// SubAgents implements [runtime.Agent].
func (a *Agent) SubAgents() []runtime.Agent { return a.cfg.SubAgents }

// Callbacks implements [runtime.Agent].
func (a *Agent) Callbacks() *runtime.AgentCallbacks { return &a.cfg.AgentCallbacks }

// Config returns the agent's declaration; it must not be modified.
func (a *Agent) Config() *Config { return &a.cfg }

// Describe implements [runtime.Describer].
func (a *Agent) Describe() runtime.AgentDescription {
	d := &runtime.LLMDescription{Model: a.cfg.Model, Instruction: a.cfg.Instruction,
		StaticInstruction: a.cfg.StaticInstruction, GlobalInstruction: a.cfg.GlobalInstruction, Tools: a.cfg.Tools,
		OutputKey: a.cfg.OutputKey, IncludeContents: a.cfg.IncludeContents,
		DisallowTransferToParent: a.cfg.DisallowTransferToParent, DisallowTransferToPeers: a.cfg.DisallowTransferToPeers,
		GenerateContentConfig: a.cfg.GenerateContentConfig,
		ClientCode:            a.cfg.CodeExecutor != nil && a.cfg.CodeExecutor.Kind() == codeexec.Client}
	for _, t := range a.cfg.Tools {
		if at, ok := t.(*tools.AgentTool); ok {
			d.AgentTools = append(d.AgentTools, at.Agent())
		}
	}
	return runtime.AgentDescription{Kind: runtime.KindLLM, LLM: d}
}

// DisallowTransferToParent implements [runtime.TransferPolicy].
func (a *Agent) DisallowTransferToParent() bool { return a.cfg.DisallowTransferToParent }

// DisallowTransferToPeers implements [runtime.TransferPolicy].
func (a *Agent) DisallowTransferToPeers() bool { return a.cfg.DisallowTransferToPeers }

// Run implements [runtime.Agent]: the step loop runs until the last event is
// a final response, partial, or absent. In a resumable invocation the agent
// is skipped once it has ended, stops at a long-running call (the pause),
// and records its end otherwise.
func (a *Agent) Run(ictx *runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		if ictx.AgentEnded(a.cfg.Name) {
			return
		}
		paused := false
		// Each step builds its contents from where the previous one, or the
		// session's previous invocation, stopped reading the history.
		history := ictx.HistoryCache()
		for {
			var last *v1.Event
			for ev, err := range a.step(ictx, history) {
				if err != nil {
					yield(nil, err)
					return
				}
				a.saveOutput(ev)
				last = ev
				paused = paused || ictx.ShouldPause(ev)
				if !yield(ev, nil) {
					return
				}
			}
			if last == nil || last.GetPartial() || runtime.IsFinalResponse(last) || ictx.Ended() {
				break
			}
		}
		if paused {
			return
		}
		if ev := ictx.Checkpoint(nil); ev != nil {
			yield(ev, nil)
		}
	}
}
