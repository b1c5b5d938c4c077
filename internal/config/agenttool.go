package config

import (
	"fmt"

	"google.golang.org/protobuf/types/known/structpb"
	"gopkg.in/yaml.v3"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// agentToolArgs are AgentTool's args, as ADK's AgentToolConfig names them.
type agentToolArgs struct {
	configPath        string
	skipSummarization bool
	includePlugins    bool
}

// readAgentToolArgs reads {agent: {config_path: x.yaml}, skip_summarization,
// include_plugins}.
func readAgentToolArgs(args map[string]any) (*agentToolArgs, error) {
	out := &agentToolArgs{includePlugins: true}
	for k, v := range args {
		switch k {
		case "agent":
			ref, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("agent: want {config_path: file.yaml}")
			}
			for rk := range ref {
				if rk != "config_path" {
					return nil, fmt.Errorf("agent.%s: only config_path is supported (code would load Python)", rk)
				}
			}
			out.configPath, _ = ref["config_path"].(string)
		case "skip_summarization", "include_plugins":
			b, ok := v.(bool)
			if !ok {
				return nil, fmt.Errorf("%s: want true or false", k)
			}
			if k == "skip_summarization" {
				out.skipSummarization = b
			} else {
				out.includePlugins = b
			}
		default:
			return nil, fmt.Errorf("%s: unknown field", k)
		}
	}
	if out.configPath == "" {
		return nil, fmt.Errorf("agent.config_path: required")
	}
	if !out.includePlugins {
		return nil, fmt.Errorf("include_plugins: false is not supported: the agent runs with the app's plugins")
	}
	return out, nil
}

// buildAgentTool builds the AgentTool of tools[i] from its loaded agent.
func buildAgentTool(c *AgentConfig, i int) (*tools.AgentTool, *api.ToolInfo, error) {
	child := c.agentTools[i]
	args, err := readAgentToolArgs(c.Tools[i].Args)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: tools[%d].args: %w", c.file, i, err)
	}
	agent, agentInfo, err := buildAgent(child)
	if err != nil {
		return nil, nil, err
	}
	var in, out *structpb.Struct
	if s := inputSchemaOf(child); s != nil {
		if in, err = structpb.NewStruct(s); err != nil {
			return nil, nil, fmt.Errorf("%s: input_schema: %w", child.file, err)
		}
	}
	if s := outputSchemaOf(child); s != nil {
		if out, err = structpb.NewStruct(s); err != nil {
			return nil, nil, fmt.Errorf("%s: output_schema: %w", child.file, err)
		}
	}
	t, err := tools.NewAgentTool(tools.AgentToolConfig{Agent: agent, InputSchema: in, InputOrder: inputOrderOf(child), OutputSchema: out,
		SkipSummarization: args.skipSummarization})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: tools[%d]: %w", c.file, i, err)
	}
	return t, &api.ToolInfo{Name: t.Name(), Description: t.Description(), Agent: agentInfo}, nil
}

// inputSchemaOf is the agent's input schema, or its first sub-agent's, as
// ADK's AgentTool finds it.
func inputSchemaOf(c *AgentConfig) map[string]any {
	if c.AgentClass == "LlmAgent" || len(c.subAgents) == 0 {
		return c.InputSchema
	}
	return inputSchemaOf(c.subAgents[0])
}

// inputOrderOf is the written order of inputSchemaOf's properties.
func inputOrderOf(c *AgentConfig) *tools.KeyOrder {
	if c.AgentClass == "LlmAgent" || len(c.subAgents) == 0 {
		return c.inputOrder
	}
	return inputOrderOf(c.subAgents[0])
}

// inputOrder reads the order of input_schema's properties from an agent
// file (which has decoded already).
func inputOrder(data []byte) *tools.KeyOrder {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	fields, err := mapping(doc.Content[0])
	if err != nil || fields["input_schema"] == nil {
		return nil
	}
	return keyOrder(fields["input_schema"])
}

// keyOrder is the order of a schema node's properties, and of its nested
// object (or array of object) schemas'.
func keyOrder(n *yaml.Node) *tools.KeyOrder {
	fields, err := mapping(n)
	if err != nil {
		return nil
	}
	if items := fields["items"]; items != nil && fields["properties"] == nil {
		return keyOrder(items)
	}
	props := fields["properties"]
	if props == nil || props.Kind != yaml.MappingNode {
		return nil
	}
	out := &tools.KeyOrder{Nested: map[string]*tools.KeyOrder{}}
	for i := 0; i+1 < len(props.Content); i += 2 {
		k := props.Content[i].Value
		out.Keys = append(out.Keys, k)
		if nested := keyOrder(props.Content[i+1]); nested != nil {
			out.Nested[k] = nested
		}
	}
	return out
}

// outputSchemaOf is the agent's output schema, or its last sub-agent's.
func outputSchemaOf(c *AgentConfig) map[string]any {
	if c.AgentClass == "LlmAgent" || len(c.subAgents) == 0 {
		return c.OutputSchema
	}
	return outputSchemaOf(c.subAgents[len(c.subAgents)-1])
}
