package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/planners"
)

// adkPlannersPackage is the Python package ADK's planners are exported
// from; a name may carry it.
const adkPlannersPackage = "google.adk.planners."

// thinkingLevels are google.genai's ThinkingLevel values.
var thinkingLevels = []string{"THINKING_LEVEL_UNSPECIFIED", "MINIMAL", "LOW", "MEDIUM", "HIGH"}

// PlannerRef is an LlmAgent's planner: ADK's class name (BuiltInPlanner or
// PlanReActPlanner, optionally as google.adk.planners.<name>) and its
// arguments, as a tools entry names a tool.
type PlannerRef struct {
	Name  string         `yaml:"name"`
	Args  map[string]any `yaml:"args"`
	Extra map[string]any `yaml:",inline"`
}

// buildPlanner resolves the agent's planner: nil when none is declared.
// Errors name the planner's field.
func buildPlanner(c *AgentConfig) (planners.Planner, error) {
	ref := c.Planner
	if ref == nil {
		return nil, nil
	}
	fail := func(field string, err error) error { return fmt.Errorf("%s: planner%s: %w", c.file, field, err) }
	for k := range ref.Extra {
		return nil, fail("."+k, errors.New("unknown field"))
	}
	switch strings.TrimPrefix(ref.Name, adkPlannersPackage) {
	case "":
		return nil, fail(".name", errors.New("required"))
	case "PlanReActPlanner":
		for k := range ref.Args {
			return nil, fail(".args."+k, errors.New("unknown field: PlanReActPlanner takes no args"))
		}
		return planners.PlanReAct{}, nil
	case "BuiltInPlanner":
		tc, err := builtInArgs(ref.Args, fail)
		if err != nil {
			return nil, err
		}
		if c.GenerateContentConfig["thinking_config"] != nil || c.GenerateContentConfig["thinkingConfig"] != nil {
			// ADK warns when the agent is made; the planner's wins.
			slog.Warn("planner thinking_config replaces generate_content_config.thinking_config", "file", c.file,
				"agent", c.Name)
		}
		return &planners.BuiltIn{ThinkingConfig: tc}, nil
	default:
		return nil, fail(".name", fmt.Errorf("%q is not BuiltInPlanner or PlanReActPlanner", ref.Name))
	}
}

// builtInArgs reads BuiltInPlanner's one argument, thinking_config, in
// google.genai's field names (snake_case or camelCase).
func builtInArgs(args map[string]any, fail func(string, error) error) (*v1.ThinkingConfig, error) {
	for k := range args {
		if k != "thinking_config" {
			return nil, fail(".args."+k, errors.New("unknown field: BuiltInPlanner takes thinking_config"))
		}
	}
	raw, ok := args["thinking_config"].(map[string]any)
	if !ok {
		return nil, fail(".args.thinking_config", errors.New("required: a mapping of google.genai's ThinkingConfig"))
	}
	if level, ok := raw["thinking_level"].(string); ok {
		raw["thinking_level"] = strings.ToUpper(level)
	}
	if level, ok := raw["thinkingLevel"].(string); ok {
		raw["thinkingLevel"] = strings.ToUpper(level)
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, fail(".args.thinking_config", err)
	}
	tc := &v1.ThinkingConfig{}
	if err := protojson.Unmarshal(b, tc); err != nil {
		return nil, fail(".args.thinking_config", errors.New(strings.TrimPrefix(err.Error(), "proto: ")))
	}
	if tc.ThinkingLevel != "" && !slices.Contains(thinkingLevels, tc.ThinkingLevel) {
		return nil, fail(".args.thinking_config.thinking_level", fmt.Errorf("%q is not one of %s", tc.ThinkingLevel,
			strings.Join(thinkingLevels, ", ")))
	}
	return tc, nil
}
