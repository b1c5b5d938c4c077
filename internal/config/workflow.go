package config

import (
	"errors"
	"fmt"
	"slices"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/workflow"
)

// buildChildren builds an agent's sub-agents and lists them in info.
func buildChildren(c *AgentConfig, info *api.AgentInfo) ([]runtime.Agent, error) {
	var subs []runtime.Agent
	for _, child := range c.subAgents {
		a, ci, err := buildAgent(child)
		if err != nil {
			return nil, err
		}
		subs = append(subs, a)
		info.SubAgents = append(info.SubAgents, ci)
	}
	return subs, nil
}

// llmOnlyFields are the fields a workflow agent must not set, sorted, so
// that an error names the same one every time.
func llmOnlyFields(c *AgentConfig) []string {
	var set []string
	for field, on := range map[string]bool{
		"model": c.Model != "", "model_code": c.ModelCode != nil, "instruction": c.Instruction != "", "static_instruction": c.StaticInstruction != "",
		"global_instruction": c.GlobalInstruction != "", "tools": len(c.Tools) > 0, "output_key": c.OutputKey != "",
		"output_schema": c.OutputSchema != nil, "input_schema": c.InputSchema != nil, "include_contents": c.IncludeContents != "",
		"generate_content_config":     c.GenerateContentConfig != nil,
		"disallow_transfer_to_parent": c.DisallowTransferToParent, "disallow_transfer_to_peers": c.DisallowTransferToPeers,
		"before_model_callbacks": len(c.BeforeModelCallbacks) > 0, "after_model_callbacks": len(c.AfterModelCallbacks) > 0,
		"before_tool_callbacks": len(c.BeforeToolCallbacks) > 0, "after_tool_callbacks": len(c.AfterToolCallbacks) > 0,
		"on_model_error_callbacks": len(c.OnModelErrorCallbacks) > 0, "on_model_error_callback": len(c.OnModelErrorCallback) > 0,
		"on_tool_error_callbacks": len(c.OnToolErrorCallbacks) > 0, "planner": c.Planner != nil,
		"code_executor": c.CodeExecutor != nil, "mode": c.Mode != "",
	} {
		if on {
			set = append(set, field)
		}
	}
	slices.Sort(set)
	return set
}

// buildWorkflow builds a SequentialAgent, ParallelAgent or LoopAgent.
func buildWorkflow(c *AgentConfig) (runtime.Agent, *api.AgentInfo, error) {
	if fields := llmOnlyFields(c); len(fields) > 0 {
		return nil, nil, fmt.Errorf("%s: %s: only applies to LlmAgent, not %s", c.file, fields[0], c.AgentClass)
	}
	cbs, err := buildCallbacks(c)
	if err != nil {
		return nil, nil, err
	}
	if c.MaxIterations != 0 && c.AgentClass != "LoopAgent" {
		return nil, nil, fmt.Errorf("%s: max_iterations: only applies to LoopAgent", c.file)
	}
	if len(c.subAgents) == 0 {
		return nil, nil, fmt.Errorf("%s: sub_agents: a %s needs at least one", c.file, c.AgentClass)
	}
	info := &api.AgentInfo{Name: c.Name, AgentClass: c.AgentClass, Description: c.Description, Callbacks: cbs.info}
	subs, err := buildChildren(c, info)
	if err != nil {
		return nil, nil, err
	}
	cfg := workflow.Config{Name: c.Name, Description: c.Description, SubAgents: subs, Callbacks: cbs.agent}
	var agent runtime.Agent
	switch c.AgentClass {
	case "SequentialAgent":
		agent, err = workflow.NewSequential(cfg)
	case "ParallelAgent":
		agent, err = workflow.NewParallel(cfg)
	case "LoopAgent":
		agent, err = workflow.NewLoop(cfg, c.MaxIterations)
	default:
		err = errors.New("unknown agent_class " + c.AgentClass)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", c.file, err)
	}
	return agent, info, nil
}
