package config

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/agentsvc/agentsvc/internal/models/registry"
)

// ModelCodeRef is an LlmAgent's model_code: ADK's CodeConfig naming a
// model class (google.adk.models.lite_llm.LiteLlm or
// google.adk.models.anthropic_llm.Claude) and its constructor's
// arguments.
type ModelCodeRef struct {
	Name  string           `yaml:"name"`
	Args  []ModelCodeValue `yaml:"args"`
	Extra map[string]any   `yaml:",inline"`
}

// ModelCodeValue is one argument of a model_code entry: ADK's
// ArgumentConfig, a name (empty for a positional argument) and a value.
type ModelCodeValue struct {
	Name  string         `yaml:"name"`
	Value any            `yaml:"value"`
	Extra map[string]any `yaml:",inline"`
}

// resolveModel validates the agent's model or model_code and records its
// spec. Only models that are not Gemini's get a spec: a Gemini name needs
// none.
func (c *AgentConfig) resolveModel() error {
	if c.ModelCode == nil {
		if c.Model == "" {
			return nil
		}
		spec, err := registry.FromName(c.Model)
		if err != nil {
			return fmt.Errorf("model: %w", err)
		}
		if spec.Kind != registry.KindGemini {
			spec.Source = c.file + ": model"
			c.modelSpec = &spec
		}
		return nil
	}
	if c.AgentClass != "LlmAgent" {
		return errors.New("model_code: only an LlmAgent has a model")
	}
	if c.Model != "" {
		return errors.New("model_code: only one of `model` or `model_code` should be set")
	}
	for k := range c.ModelCode.Extra {
		return fmt.Errorf("model_code.%s: unknown field", k)
	}
	args := make([]registry.Arg, len(c.ModelCode.Args))
	for i, a := range c.ModelCode.Args {
		for k := range a.Extra {
			return fmt.Errorf("model_code.args[%d].%s: unknown field", i, k)
		}
		args[i] = registry.Arg{Name: a.Name, Value: a.Value}
	}
	spec, err := registry.FromCode(c.ModelCode.Name, args)
	if err != nil {
		return fmt.Errorf("model_code.%w", err)
	}
	spec.Source = c.file + ": model_code"
	c.modelSpec = &spec
	return nil
}

// modelName is the name the engine knows the agent's model by: its model,
// or the name [nameModels] gave its model_code.
func (c *AgentConfig) modelName() string {
	if c.modelKey != "" {
		return c.modelKey
	}
	return c.Model
}

// nameModels gives every agent of the tree under root that declares a
// model other than Gemini's an engine name and returns the specs by those
// names: the model's own name ("openai/gpt-4o"), or, when another agent
// declared the same model with other arguments, the name followed by
// "#2", "#3", ... in the order the agents are met.
func nameModels(root *AgentConfig) map[string]registry.Spec {
	specs := map[string]registry.Spec{}
	eachAgent(root, func(c *AgentConfig) {
		s := c.modelSpec
		if s == nil {
			return
		}
		key := s.Name
		for n := 2; ; n++ {
			old, taken := specs[key]
			if !taken || sameModel(old, *s) {
				break
			}
			key = s.Name + "#" + strconv.Itoa(n)
		}
		if _, taken := specs[key]; !taken {
			specs[key] = *s
		}
		if c.ModelCode != nil {
			c.modelKey = key
		}
	})
	return specs
}

// sameModel reports whether two declarations make the same model.
func sameModel(a, b registry.Spec) bool {
	a.Source, b.Source = "", ""
	return reflect.DeepEqual(a, b)
}

// Models returns the app's model declarations that are not Gemini's, by
// the model name its agents use, for the app's model resolver.
func (a *AppConfig) Models() map[string]registry.Spec { return a.models }

// UsesGemini reports whether an agent of the app names a Gemini model
// (any model name that is not another provider's).
func (a *AppConfig) UsesGemini() bool {
	uses := false
	eachAgent(a.Root, func(c *AgentConfig) {
		uses = uses || c.AgentClass == "LlmAgent" && c.Model != "" && c.modelSpec == nil
	})
	return uses
}

// eachAgent calls f for every agent of the tree under root once: the
// agent, its sub-agents, agent tools and workflow nodes, depth first.
func eachAgent(root *AgentConfig, f func(*AgentConfig)) {
	seen := map[*AgentConfig]bool{}
	var walk func(c *AgentConfig)
	walk = func(c *AgentConfig) {
		if c == nil || seen[c] {
			return
		}
		seen[c] = true
		f(c)
		for _, sub := range c.subAgents {
			walk(sub)
		}
		for i := range len(c.Tools) {
			walk(c.agentTools[i])
		}
		for i := range len(c.Nodes) {
			walk(c.nodeAgents[i])
		}
	}
	walk(root)
}
