package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/planners"
)

// buildRoot loads and builds the app of one root agent file.
func buildRoot(t *testing.T, yaml string) (*llmagent.Agent, error) {
	t.Helper()
	return buildRootOf(t, "plan", yaml)
}

// buildRootOf builds the root agent of app dir whose root_agent.yaml is
// yaml.
func buildRootOf(t *testing.T, dir, yaml string) (*llmagent.Agent, error) {
	t.Helper()
	app, err := Load(fstest.MapFS{dir + "/root_agent.yaml": {Data: []byte(yaml)}}, dir)
	if err != nil {
		return nil, err
	}
	rt, _, err := Build(app)
	if err != nil {
		return nil, err
	}
	return rt.Tree.Root().(*llmagent.Agent), nil
}

func TestPlannerConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, planner string
		want          planners.Planner
	}{
		{"plan-re-act", "{name: PlanReActPlanner}", planners.PlanReAct{}},
		{"plan-re-act, package name, empty args", "{name: google.adk.planners.PlanReActPlanner, args: {}}", planners.PlanReAct{}},
		{"built-in, snake_case", "{name: BuiltInPlanner, args: {thinking_config: {include_thoughts: true, thinking_budget: 1024}}}",
			&planners.BuiltIn{ThinkingConfig: &v1.ThinkingConfig{IncludeThoughts: true, ThinkingBudget: proto.Int32(1024)}}},
		{"built-in, camelCase, level any case", "{name: BuiltInPlanner, args: {thinking_config: {thinkingLevel: low, thinkingBudget: 0}}}",
			&planners.BuiltIn{ThinkingConfig: &v1.ThinkingConfig{ThinkingLevel: "LOW", ThinkingBudget: proto.Int32(0)}}},
		{"built-in, empty thinking config", "{name: BuiltInPlanner, args: {thinking_config: {}}}",
			&planners.BuiltIn{ThinkingConfig: &v1.ThinkingConfig{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			agent, err := buildRoot(t, "name: a\nmodel: m\nplanner: "+tt.planner+"\n")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, agent.Config().Planner, protocmp.Transform()); diff != "" {
				t.Errorf("planner (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlannerConfigErrorsNameFileAndField(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, yaml, want string }{
		{"unknown planner", "name: a\nmodel: m\nplanner: {name: TreeOfThoughtPlanner}\n",
			`plan/root_agent.yaml: planner.name: "TreeOfThoughtPlanner" is not BuiltInPlanner or PlanReActPlanner`},
		{"no name", "name: a\nmodel: m\nplanner: {args: {}}\n", "plan/root_agent.yaml: planner.name: required"},
		{"unknown field", "name: a\nmodel: m\nplanner: {name: PlanReActPlanner, kind: x}\n",
			"plan/root_agent.yaml: planner.kind: unknown field"},
		{"plan-re-act with args", "name: a\nmodel: m\nplanner: {name: PlanReActPlanner, args: {depth: 2}}\n",
			"plan/root_agent.yaml: planner.args.depth: unknown field: PlanReActPlanner takes no args"},
		{"built-in without thinking config", "name: a\nmodel: m\nplanner: {name: BuiltInPlanner}\n",
			"plan/root_agent.yaml: planner.args.thinking_config: required"},
		{"built-in, null thinking config", "name: a\nmodel: m\nplanner: {name: BuiltInPlanner, args: {thinking_config: null}}\n",
			"plan/root_agent.yaml: planner.args.thinking_config: required"},
		{"built-in, unknown arg", "name: a\nmodel: m\nplanner: {name: BuiltInPlanner, args: {thinking_config: {}, budget: 1}}\n",
			"plan/root_agent.yaml: planner.args.budget: unknown field"},
		{"built-in, unknown thinking field", "name: a\nmodel: m\nplanner: {name: BuiltInPlanner, args: {thinking_config: {depth: 1}}}\n",
			`plan/root_agent.yaml: planner.args.thinking_config: `},
		{"built-in, budget out of range", "name: a\nmodel: m\nplanner: {name: BuiltInPlanner, args: {thinking_config: {thinking_budget: 99999999999}}}\n",
			`plan/root_agent.yaml: planner.args.thinking_config: `},
		{"built-in, budget not a number", "name: a\nmodel: m\nplanner: {name: BuiltInPlanner, args: {thinking_config: {thinking_budget: lots}}}\n",
			`plan/root_agent.yaml: planner.args.thinking_config: `},
		{"built-in, unknown level", "name: a\nmodel: m\nplanner: {name: BuiltInPlanner, args: {thinking_config: {thinking_level: EXTREME}}}\n",
			`plan/root_agent.yaml: planner.args.thinking_config.thinking_level: "EXTREME" is not one of`},
		{"workflow agent", "name: a\nagent_class: SequentialAgent\nplanner: {name: PlanReActPlanner}\n",
			"plan/root_agent.yaml: planner: only applies to LlmAgent, not SequentialAgent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := buildRoot(t, tt.yaml)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error = %v, want prefix %q", err, tt.want)
			}
		})
	}
}
