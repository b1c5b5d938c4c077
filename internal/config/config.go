// Package config loads apps declared in ADK's Agent Config YAML: one
// directory per app holding root_agent.yaml (and the files its sub_agents
// name). Errors name the file and the offending field.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentsvc/agentsvc/internal/models/registry"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
	"github.com/agentsvc/agentsvc/internal/runtime/tools/mcp"
)

// RootFile is the file that declares an app's root agent.
const RootFile = "root_agent.yaml"

// AgentConfig is one agent of ADK's Agent Config YAML.
type AgentConfig struct {
	AgentClass               string           `yaml:"agent_class"`
	Name                     string           `yaml:"name"`
	Model                    string           `yaml:"model"`
	ModelCode                *ModelCodeRef    `yaml:"model_code"`
	Description              string           `yaml:"description"`
	Instruction              string           `yaml:"instruction"`
	StaticInstruction        string           `yaml:"static_instruction"`
	GlobalInstruction        string           `yaml:"global_instruction"`
	SubAgents                []SubAgentRef    `yaml:"sub_agents"`
	Tools                    []ToolRef        `yaml:"tools"`
	OutputKey                string           `yaml:"output_key"`
	InputSchema              map[string]any   `yaml:"input_schema"`
	OutputSchema             map[string]any   `yaml:"output_schema"`
	IncludeContents          string           `yaml:"include_contents"`
	DisallowTransferToParent bool             `yaml:"disallow_transfer_to_parent"`
	DisallowTransferToPeers  bool             `yaml:"disallow_transfer_to_peers"`
	GenerateContentConfig    map[string]any   `yaml:"generate_content_config"`
	MaxIterations            int              `yaml:"max_iterations"`
	CodeExecutor             *CodeExecutorRef `yaml:"code_executor"`
	BeforeAgentCallbacks     CallbackRefs     `yaml:"before_agent_callbacks"`
	AfterAgentCallbacks      CallbackRefs     `yaml:"after_agent_callbacks"`
	BeforeModelCallbacks     CallbackRefs     `yaml:"before_model_callbacks"`
	AfterModelCallbacks      CallbackRefs     `yaml:"after_model_callbacks"`
	OnModelErrorCallbacks    CallbackRefs     `yaml:"on_model_error_callbacks"`
	OnModelErrorCallback     CallbackRefs     `yaml:"on_model_error_callback"` // ADK 2.x's name
	BeforeToolCallbacks      CallbackRefs     `yaml:"before_tool_callbacks"`
	AfterToolCallbacks       CallbackRefs     `yaml:"after_tool_callbacks"`
	OnToolErrorCallbacks     CallbackRefs     `yaml:"on_tool_error_callbacks"`
	Planner                  *PlannerRef      `yaml:"planner"`
	// RetryConfig retries the agent's failed model calls (ADK 2.x's
	// RetryConfig); LlmAgent only.
	RetryConfig *RetrySettings `yaml:"retry_config"`
	// Mode is an LlmAgent's mode as an ADK 2.x workflow node: single_turn,
	// task or chat (graph.go).
	Mode string `yaml:"mode"`
	// Nodes, Edges and MaxConcurrency declare a Workflow (graph.go).
	Nodes          []NodeRef `yaml:"nodes"`
	Edges          []EdgeRef `yaml:"edges"`
	MaxConcurrency int       `yaml:"max_concurrency"`
	// RerunOnResume is a Workflow's rerun_on_resume (default true): false
	// makes the answer to a question asked inside it its output when it
	// runs as a node of another workflow.
	RerunOnResume *bool `yaml:"rerun_on_resume"`
	// AgentCard and Timeout configure a RemoteA2aAgent (remotea2a.go).
	AgentCard   string               `yaml:"agent_card"`
	Timeout     float64              `yaml:"timeout"`
	Extra       map[string]any       `yaml:",inline"`
	subAgents   []*AgentConfig       // resolved SubAgents
	agentTools  map[int]*AgentConfig // resolved AgentTool agents, by tools index
	mcpToolsets map[int]*mcpToolset  // resolved MCPToolset entries, by tools index
	nodeAgents  map[int]*AgentConfig // resolved Workflow node agents, by nodes index
	singleTurn  bool                 // runs as a single-turn Workflow node
	directTasks bool                 // a Workflow that runs task-mode agents placed as nodes (ADK 2.13)
	inputOrder  *tools.KeyOrder      // InputSchema's properties in written order
	outputOrder *tools.KeyOrder      // OutputSchema's properties in written order
	file        string               // the file that declared the agent
	modelSpec   *registry.Spec       // the model, when it is not Gemini's (modelcode.go)
	modelKey    string               // the engine's name of a model_code model
}

// SubAgentRef points to another agent file, relative to the declaring file.
type SubAgentRef struct {
	ConfigPath string `yaml:"config_path"`
}

// ToolRef names a tool, with optional arguments.
type ToolRef struct {
	Name     string         `yaml:"name"`
	Args     map[string]any `yaml:"args"`
	Extra    map[string]any `yaml:",inline"`
	argsNode *yaml.Node     // Args as written, keys in order
}

// CallbackRef names a callback that lives in the client: ADK's CodeConfig,
// whose name is a Python-style path (pkg.module.fn) or a plain name.
type CallbackRef struct {
	Name  string         `yaml:"name"`
	Args  []any          `yaml:"args"`
	Extra map[string]any `yaml:",inline"`
}

// CallbackRefs is a *_callbacks entry: a list of callbacks, or one.
type CallbackRefs []CallbackRef

// UnmarshalYAML accepts a sequence of callbacks or a single mapping.
func (r *CallbackRefs) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		var one CallbackRef
		if err := n.Decode(&one); err != nil {
			return err
		}
		*r = CallbackRefs{one}
		return nil
	}
	var list []CallbackRef
	if err := n.Decode(&list); err != nil {
		return err
	}
	*r = list
	return nil
}

// Children returns the resolved sub-agents.
func (c *AgentConfig) Children() []*AgentConfig { return c.subAgents }

// File returns the path of the file that declared the agent.
func (c *AgentConfig) File() string { return c.file }

// AppConfig is one app: its name (the directory), its root agent and its
// settings.
type AppConfig struct {
	Name     string
	Root     *AgentConfig
	Settings *AppSettings
	// models are the declarations of models that are not Gemini's, by
	// the engine's model name (modelcode.go).
	models map[string]registry.Spec
	// mcpServers are the MCP servers the app's toolsets reach, one per
	// distinct connection.
	mcpServers []*mcp.Server
}

// LoadAll loads every app directory of fsys (directories holding
// root_agent.yaml), sorted by name.
func LoadAll(fsys fs.FS) ([]*AppConfig, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("config: list apps: %w", err)
	}
	var apps []*AppConfig
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(e.Name(), RootFile)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		app, err := Load(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		apps = append(apps, app)
	}
	if len(apps) == 0 {
		return nil, fmt.Errorf("config: no app directory with %s found", RootFile)
	}
	sort.Slice(apps, func(i, j int) bool { return apps[i].Name < apps[j].Name })
	return apps, nil
}

// Load loads the app in directory dir of fsys.
func Load(fsys fs.FS, dir string) (*AppConfig, error) {
	root, err := loadAgent(fsys, path.Join(dir, RootFile), map[string]bool{})
	if err != nil {
		return nil, err
	}
	settings, err := loadSettings(fsys, dir)
	if err != nil {
		return nil, err
	}
	return &AppConfig{Name: path.Base(dir), Root: root, Settings: settings, models: nameModels(root), mcpServers: connectMCP(root)}, nil
}

func loadAgent(fsys fs.FS, file string, loading map[string]bool) (*AgentConfig, error) {
	if loading[file] {
		return nil, fmt.Errorf("%s: sub_agents: cycle through this file", file)
	}
	loading[file] = true
	defer delete(loading, file)
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	cfg := &AgentConfig{file: file}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(cfg); err != nil {
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if cfg.InputSchema != nil {
		cfg.inputOrder = inputOrder(data)
	}
	if cfg.OutputSchema != nil {
		cfg.outputOrder = schemaOrder(data, "output_schema")
	}
	for i, ref := range cfg.SubAgents {
		if ref.ConfigPath == "" {
			return nil, fmt.Errorf("%s: sub_agents[%d].config_path is required", file, i)
		}
		child, err := loadAgent(fsys, path.Join(path.Dir(file), ref.ConfigPath), loading)
		if err != nil {
			return nil, err
		}
		cfg.subAgents = append(cfg.subAgents, child)
	}
	if err := loadWorkflowNodes(cfg, func(f string) (*AgentConfig, error) { return loadAgent(fsys, f, loading) }); err != nil {
		return nil, err
	}
	for i, ref := range cfg.Tools {
		name, _ := toolName(ref.Name)
		if isMCPToolset(name) {
			t, err := readMCPToolset(ref.Args)
			if err != nil {
				return nil, fmt.Errorf("%s: tools[%d].args: %w", file, i, err)
			}
			if cfg.mcpToolsets == nil {
				cfg.mcpToolsets = map[int]*mcpToolset{}
			}
			cfg.mcpToolsets[i] = t
			continue
		}
		if name != "AgentTool" {
			continue
		}
		args, err := readAgentToolArgs(ref.Args)
		if err != nil {
			return nil, fmt.Errorf("%s: tools[%d].args: %w", file, i, err)
		}
		child, err := loadAgent(fsys, path.Join(path.Dir(file), args.configPath), loading)
		if err != nil {
			return nil, err
		}
		if cfg.agentTools == nil {
			cfg.agentTools = map[int]*AgentConfig{}
		}
		cfg.agentTools[i] = child
	}
	return cfg, nil
}

func (c *AgentConfig) validate() error {
	for k := range c.Extra {
		return fmt.Errorf("%s: unknown field", k)
	}
	for i, t := range c.Tools {
		for k := range t.Extra {
			return fmt.Errorf("tools[%d].%s: unknown field", i, k)
		}
	}
	if c.AgentClass == "" {
		c.AgentClass = "LlmAgent"
	}
	switch c.AgentClass {
	case "LlmAgent", "SequentialAgent", "ParallelAgent", "LoopAgent", remoteA2aClass, workflowClass:
	default:
		return fmt.Errorf("agent_class: %q is not one of LlmAgent, SequentialAgent, ParallelAgent, LoopAgent, RemoteA2aAgent, Workflow", c.AgentClass)
	}
	if c.Name == "" {
		return errors.New("name: required")
	}
	if !isIdentifier(c.Name) {
		return fmt.Errorf("name: %q must be an identifier (letters, digits, underscores)", c.Name)
	}
	if c.Name == "user" {
		return errors.New(`name: "user" is reserved for the end user`)
	}
	switch c.IncludeContents {
	case "", "default", "none":
	default:
		return fmt.Errorf("include_contents: %q is not default or none", c.IncludeContents)
	}
	if c.MaxIterations < 0 {
		return errors.New("max_iterations: must not be negative")
	}
	if err := c.resolveModel(); err != nil {
		return err
	}
	if err := c.validateRemoteA2a(); err != nil {
		return err
	}
	if err := c.validateWorkflow(); err != nil {
		return err
	}
	if c.RetryConfig != nil {
		if c.AgentClass != "LlmAgent" {
			return errors.New("retry_config: only an LlmAgent's model calls are retried")
		}
		if _, err := c.RetryConfig.policy(); err != nil {
			return err
		}
	}
	return nil
}

func isIdentifier(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}
