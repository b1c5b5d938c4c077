package config

import (
	"fmt"

	"gopkg.in/yaml.v3"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// buildTaskNode builds the agent of a Workflow's task node i: an LlmAgent
// file with mode task, which the node wraps under its own name.
func buildTaskNode(c *AgentConfig, i int, infos *[]*api.AgentInfo) (graph.Kind, runtime.Agent, error) {
	ref, child := c.Nodes[i], c.nodeAgents[i]
	if child.AgentClass != "LlmAgent" || child.Mode != llmagent.ModeTask {
		return 0, nil, fmt.Errorf("%s: nodes[%d].task: %s must be an LlmAgent with mode task, not a %s with mode %q",
			c.file, i, ref.Task, child.AgentClass, child.Mode)
	}
	a, info, err := buildAgent(child)
	if err != nil {
		return 0, nil, err
	}
	*infos = append(*infos, info)
	return graph.TaskNode, a, nil
}

// checkMode checks an LlmAgent's mode.
func checkMode(c *AgentConfig) error {
	switch c.Mode {
	case "", llmagent.ModeSingleTurn, llmagent.ModeTask, llmagent.ModeChat:
		return nil
	}
	return fmt.Errorf("%q is not single_turn, task or chat", c.Mode)
}

// schemaOrder reads the written order of a schema field's properties from
// an agent file (which has decoded already).
func schemaOrder(data []byte, field string) *tools.KeyOrder {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	fields, err := mapping(doc.Content[0])
	if err != nil || fields[field] == nil {
		return nil
	}
	return keyOrder(fields[field])
}
