package config

import (
	"encoding/json"
	"fmt"
	"path"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/retry"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// Build turns an app's configuration into the engine's app and its
// description.
func Build(app *AppConfig) (*runtime.App, *api.App, error) {
	if app.Settings != nil && app.Settings.ADKBehavior == "2.x" {
		allowDirectTasks(app.Root)
	}
	root, info, err := buildAgent(app.Root)
	if err != nil {
		return nil, nil, err
	}
	tree, err := runtime.NewTree(root)
	if err != nil {
		return nil, nil, fmt.Errorf("app %s: %w", app.Name, err)
	}
	settings := app.Settings
	if settings == nil {
		settings = &AppSettings{}
	}
	// Each app gets plugins of its own: they may keep state.
	list, err := settings.plugins()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path.Join(path.Dir(app.Root.file), AppFile), err)
	}
	ps, err := runtime.NewPlugins(list...)
	if err != nil {
		return nil, nil, err
	}
	rt := &runtime.App{Name: app.Name, Tree: tree, Plugins: ps, Resumable: settings.Resumable(),
		Behavior: settings.Behavior(), NodePaths: settings.Behavior() == runtime.Behavior2x && onlyLLMAgents(app.Root)}
	if hasWorkflow(app.Root) {
		// A graph Workflow is ADK 2.x's: its app behaves as 2.x, node paths
		// included.
		if settings.ADKBehavior != "" && settings.Behavior() != runtime.Behavior2x {
			return nil, nil, fmt.Errorf("%s: adk_behavior: an app with a Workflow behaves as ADK 2.x; set \"2.x\" or leave it unset",
				path.Join(path.Dir(app.Root.file), AppFile))
		}
		rt.Behavior, rt.NodePaths = runtime.Behavior2x, true
	}
	rt.ContextCache = settings.ContextCacheConfig.config()
	for _, s := range app.mcpServers {
		rt.Closers = append(rt.Closers, s)
	}
	if c := settings.EventsCompactionConfig; c != nil {
		// ADK summarises with the root agent's model.
		if app.Root.AgentClass != "LlmAgent" || app.Root.modelName() == "" {
			return nil, nil, fmt.Errorf("%s: events_compaction_config: the root agent's model writes the summaries: "+
				"the root must be an LlmAgent with a model", path.Join(path.Dir(app.Root.file), AppFile))
		}
		rt.Compaction = &compaction.Config{Interval: *c.CompactionInterval, Overlap: *c.OverlapSize, Model: app.Root.modelName()}
		if c.TokenThreshold != nil {
			rt.Compaction.TokenThreshold, rt.Compaction.Retention = *c.TokenThreshold, *c.EventRetentionSize
		}
	}
	return rt, &api.App{Name: app.Name, RootAgent: info}, nil
}

// allowDirectTasks lets every Workflow under c run a task-mode LlmAgent
// placed directly as a node, as ADK 2.13 does.
func allowDirectTasks(c *AgentConfig) {
	c.directTasks = true
	for _, sub := range c.Children() {
		allowDirectTasks(sub)
	}
	for _, n := range c.nodeAgents {
		allowDirectTasks(n)
	}
}

// onlyLLMAgents reports whether every agent of the tree under c is an
// LlmAgent.
// hasWorkflow reports whether the tree holds a graph Workflow.
func hasWorkflow(c *AgentConfig) bool {
	if c.AgentClass == workflowClass {
		return true
	}
	for _, sub := range c.Children() {
		if hasWorkflow(sub) {
			return true
		}
	}
	for _, n := range c.nodeAgents {
		if hasWorkflow(n) {
			return true
		}
	}
	return false
}

func onlyLLMAgents(c *AgentConfig) bool {
	if c.AgentClass != "LlmAgent" {
		return false
	}
	for _, sub := range c.Children() {
		if !onlyLLMAgents(sub) {
			return false
		}
	}
	return true
}

func buildAgent(c *AgentConfig) (runtime.Agent, *api.AgentInfo, error) {
	fail := func(field string, err error) error { return fmt.Errorf("%s: %s: %w", c.file, field, err) }
	if c.AgentClass == remoteA2aClass {
		return buildRemoteA2a(c)
	}
	if c.AgentClass == workflowClass {
		return buildGraph(c)
	}
	if c.AgentClass != "LlmAgent" {
		return buildWorkflow(c)
	}
	agentTools, err := buildTools(c)
	if err != nil {
		return nil, nil, err
	}
	cbs, err := buildCallbacks(c)
	if err != nil {
		return nil, nil, err
	}
	if c.MaxIterations != 0 {
		return nil, nil, fail("max_iterations", fmt.Errorf("only applies to LoopAgent"))
	}
	info := &api.AgentInfo{Name: c.Name, AgentClass: c.AgentClass, Description: c.Description, Model: c.modelName(),
		Tools: agentTools.info, Callbacks: cbs.info}
	subs, err := buildChildren(c, info)
	if err != nil {
		return nil, nil, err
	}
	gcc, err := generateConfig(c.GenerateContentConfig)
	if err != nil {
		return nil, nil, fail("generate_content_config", err)
	}
	planner, err := buildPlanner(c)
	if err != nil {
		return nil, nil, err
	}
	if err := checkMode(c); err != nil {
		return nil, nil, fail("mode", err)
	}
	var schema *structpb.Struct
	if c.OutputSchema != nil {
		if schema, err = structpb.NewStruct(c.OutputSchema); err != nil {
			return nil, nil, fail("output_schema", err)
		}
	}
	var retryPolicy *retry.Config
	if c.RetryConfig != nil {
		// validate checked the fields when the file loaded.
		p, err := c.RetryConfig.policy()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", c.file, err)
		}
		retryPolicy = &p
	}
	executor, err := buildCodeExecutor(c)
	if err != nil {
		return nil, nil, err
	}
	agent, err := llmagent.New(llmagent.Config{
		Name:                     c.Name,
		Description:              c.Description,
		Model:                    c.modelName(),
		Instruction:              c.Instruction,
		StaticInstruction:        c.StaticInstruction,
		GlobalInstruction:        c.GlobalInstruction,
		SubAgents:                subs,
		OutputKey:                c.OutputKey,
		OutputSchema:             schema,
		OutputOrder:              c.outputOrder,
		Mode:                     c.Mode,
		IncludeContents:          c.IncludeContents,
		SingleTurn:               c.singleTurn,
		DisallowTransferToParent: c.DisallowTransferToParent,
		DisallowTransferToPeers:  c.DisallowTransferToPeers,
		GenerateContentConfig:    gcc,
		Planner:                  planner,
		CodeExecutor:             executor,
		Tools:                    agentTools.builtin,
		Toolsets:                 agentTools.toolsets(),
		AgentCallbacks:           cbs.agent,
		ModelCallbacks:           cbs.model,
		ToolCallbacks:            cbs.tool,
		Retry:                    retryPolicy,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", c.file, err)
	}
	return agent, info, nil
}

// generateConfig reads generate_content_config in google.genai's field names
// (snake_case or camelCase).
func generateConfig(m map[string]any) (*v1.GenerateContentConfig, error) {
	if m == nil {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	cfg := &v1.GenerateContentConfig{}
	if err := protojson.Unmarshal(b, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}
