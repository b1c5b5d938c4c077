package config

import (
	"errors"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"time"

	"google.golang.org/protobuf/types/known/structpb"
	"gopkg.in/yaml.v3"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// workflowClass is ADK 2.x's graph workflow.
const workflowClass = "Workflow"

// Bounds of a workflow's YAML.
const (
	maxWorkflowNodes = 256
	maxWorkflowEdges = 1024
	maxNodeTimeout   = 24 * time.Hour
)

// NodeRef is a node of a Workflow: exactly one of function (a function of
// the client's, declared on Connect by that name), config_path (an agent
// file), join (a node that waits for all its predecessors) or tool (a
// tool by name, as an LlmAgent's tools entry) or task (the file of a
// task-mode LlmAgent the node wraps).
type NodeRef struct {
	Name          string         `yaml:"name"`
	Function      string         `yaml:"function"`
	ConfigPath    string         `yaml:"config_path"`
	Join          bool           `yaml:"join"`
	Tool          *ToolRef       `yaml:"tool"`
	Task          string         `yaml:"task"`
	RetryConfig   *RetrySettings `yaml:"retry_config"`
	RerunOnResume bool           `yaml:"rerun_on_resume"`
	// Timeout bounds each attempt of a function or tool node, in seconds.
	Timeout float64 `yaml:"timeout"`
	// AuthConfig is the credential a function node needs (ADK's
	// AuthConfig: auth_scheme, raw_auth_credential, credential_key).
	AuthConfig map[string]any `yaml:"auth_config"`
	// The fields of ADK 2.13's BaseNode, Node and FunctionNode
	// (graphfields.go).
	Description         string         `yaml:"description"`
	InputSchema         map[string]any `yaml:"input_schema"`
	OutputSchema        map[string]any `yaml:"output_schema"`
	StateSchema         any            `yaml:"state_schema"`
	WaitForOutput       bool           `yaml:"wait_for_output"`
	ParallelWorker      bool           `yaml:"parallel_worker"`
	MaxParallelWorkers  *int           `yaml:"max_parallel_workers"`
	RequireConfirmation bool           `yaml:"require_confirmation"`
	ParameterBinding    string         `yaml:"parameter_binding"`
	Extra               map[string]any `yaml:",inline"`
}

// EdgeRef is an entry of a Workflow's edges: a chain (a sequence whose
// elements are node names, lists of names for a fan-out, or routing maps
// from route to names), or one edge {from, to, route}.
type EdgeRef struct {
	chain []*yaml.Node
	edge  *edgeMap
	line  int
}

type edgeMap struct {
	From  string         `yaml:"from"`
	To    string         `yaml:"to"`
	Route any            `yaml:"route"`
	Extra map[string]any `yaml:",inline"`
}

// UnmarshalYAML accepts a chain or an edge mapping.
func (e *EdgeRef) UnmarshalYAML(n *yaml.Node) error {
	e.line = n.Line
	switch n.Kind {
	case yaml.SequenceNode:
		e.chain = n.Content
		return nil
	case yaml.MappingNode:
		e.edge = &edgeMap{}
		return n.Decode(e.edge)
	}
	return fmt.Errorf("line %d: an edge is a chain [a, b, ...] or {from, to, route}", n.Line)
}

// validateWorkflow checks the fields of a Workflow's YAML.
func (c *AgentConfig) validateWorkflow() error {
	if c.AgentClass != workflowClass {
		if len(c.Nodes) > 0 || len(c.Edges) > 0 || c.MaxConcurrency != 0 || c.RerunOnResume != nil {
			return errors.New("nodes, edges, max_concurrency and rerun_on_resume only apply to a Workflow")
		}
		return nil
	}
	if len(c.Nodes) > maxWorkflowNodes {
		return fmt.Errorf("nodes: at most %d", maxWorkflowNodes)
	}
	if len(c.Edges) > maxWorkflowEdges {
		return fmt.Errorf("edges: at most %d", maxWorkflowEdges)
	}
	if c.MaxConcurrency < 0 {
		return errors.New("max_concurrency: must not be negative")
	}
	if len(c.SubAgents) > 0 {
		return errors.New("sub_agents: a Workflow's agents are its nodes (config_path)")
	}
	for i, n := range c.Nodes {
		field := fmt.Sprintf("nodes[%d]", i)
		for k := range n.Extra {
			return fmt.Errorf("%s.%s: unknown field", field, k)
		}
		if n.Name == "" {
			return fmt.Errorf("%s.name: required", field)
		}
		if !isIdentifier(n.Name) {
			return fmt.Errorf("%s.name: %q must be an identifier (letters, digits, underscores)", field, n.Name)
		}
		kinds := 0
		for _, set := range []bool{n.Function != "", n.ConfigPath != "", n.Join, n.Tool != nil, n.Task != ""} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			return fmt.Errorf("%s: set exactly one of function, config_path, join, tool and task", field)
		}
		if n.RetryConfig != nil {
			if _, err := n.RetryConfig.policy(); err != nil {
				return fmt.Errorf("%s.%w", field, err)
			}
		}
		if err := n.checkNodeFields(); err != nil {
			return fmt.Errorf("%s.%w", field, err)
		}
		if n.Timeout != 0 {
			if math.IsNaN(n.Timeout) || n.Timeout <= 0 || n.Timeout > maxNodeTimeout.Seconds() {
				return fmt.Errorf("%s.timeout: must be between 0 and %v seconds, got %v", field, maxNodeTimeout.Seconds(), n.Timeout)
			}
		}
		if n.AuthConfig != nil {
			if n.Function == "" {
				return fmt.Errorf("%s.auth_config: only a function node asks for a credential", field)
			}
			if !n.RerunOnResume {
				return fmt.Errorf("%s.auth_config: FunctionNode with auth_config requires rerun_on_resume=True. "+ //nolint:staticcheck // ST1005: ADK's message, word for word.
					"The node must rerun after credentials are provided.", field)
			}
			if err := checkAuthConfig(n.AuthConfig); err != nil {
				return fmt.Errorf("%s.auth_config.%w", field, err)
			}
		}
		if n.Tool != nil {
			for k := range n.Tool.Extra {
				return fmt.Errorf("%s.tool.%s: unknown field", field, k)
			}
		}
	}
	return nil
}

// loadWorkflowNodes loads the agent files of a Workflow's nodes.
func loadWorkflowNodes(c *AgentConfig, load func(file string) (*AgentConfig, error)) error {
	for i, n := range c.Nodes {
		file := n.ConfigPath + n.Task // one of them is set
		if file == "" {
			continue
		}
		child, err := load(path.Join(path.Dir(c.file), file))
		if err != nil {
			return err
		}
		if c.nodeAgents == nil {
			c.nodeAgents = map[int]*AgentConfig{}
		}
		c.nodeAgents[i] = child
	}
	return nil
}

// buildGraph builds a Workflow.
func buildGraph(c *AgentConfig) (runtime.Agent, *api.AgentInfo, error) {
	fail := func(field string, err error) error { return fmt.Errorf("%s: %s: %w", c.file, field, err) }
	if fields := slices.DeleteFunc(llmOnlyFields(c), workflowSchemaField); len(fields) > 0 {
		return nil, nil, fmt.Errorf("%s: %s: only applies to LlmAgent, not %s", c.file, fields[0], c.AgentClass)
	}
	if err := checkWorkflowSchemas(c); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", c.file, err)
	}
	if c.MaxIterations != 0 {
		return nil, nil, fail("max_iterations", errors.New("only applies to LoopAgent"))
	}
	cbs, err := buildCallbacks(c)
	if err != nil {
		return nil, nil, err
	}
	info := &api.AgentInfo{Name: c.Name, AgentClass: c.AgentClass, Description: c.Description, Callbacks: cbs.info}
	cfg := graph.Config{Name: c.Name, Description: c.Description, Callbacks: cbs.agent, MaxConcurrency: c.MaxConcurrency,
		AnswerOnResume: c.RerunOnResume != nil && !*c.RerunOnResume}
	for i, ref := range c.Nodes {
		field := fmt.Sprintf("nodes[%d]", i)
		n := ref.node()
		if ref.AuthConfig != nil {
			auth, err := structpb.NewStruct(ref.AuthConfig)
			if err != nil {
				return nil, nil, fail(field+".auth_config", err)
			}
			n.Auth = auth
		}
		switch {
		case ref.Function != "":
			n.Kind, n.Function = graph.Function, ref.Function
		case ref.Join:
			n.Kind = graph.Join
		case ref.Task != "":
			if n.Kind, n.Agent, err = buildTaskNode(c, i, &info.SubAgents); err != nil {
				return nil, nil, err
			}
		case ref.Tool != nil:
			name, _ := toolName(ref.Tool.Name)
			if !functionName.MatchString(name) {
				return nil, nil, fail(field+".tool.name", fmt.Errorf("%q is not a function name", ref.Tool.Name))
			}
			n.Kind, n.ToolName = graph.ToolNode, name
			if t, ok := builtinTool(name); ok {
				n.Tool = t
			} else {
				// A tool of the client's, which it declares on Connect.
				info.Tools = append(info.Tools, &api.ToolInfo{Name: name, Remote: true})
			}
		default:
			child := c.nodeAgents[i]
			if child.Name != ref.Name {
				return nil, nil, fail(field+".name", fmt.Errorf("%q must be the name of the agent in %s, %q", ref.Name, ref.ConfigPath, child.Name))
			}
			if err := checkNodeMode(child, c.directTasks); err != nil {
				return nil, nil, fail(field, err)
			}
			if child.AgentClass == "LlmAgent" && (child.Mode == "" || child.Mode == "single_turn") && len(child.subAgents) == 0 {
				// single_turn, as ADK runs an LlmAgent node by default.
				child.singleTurn = true
				if child.IncludeContents == "" {
					child.IncludeContents = "none"
				}
			} else if ref.ParallelWorker {
				return nil, nil, fail(field+".parallel_worker", errors.New("only a function node or a single-turn LlmAgent runs as a parallel worker here"))
			}
			a, ci, err := buildAgent(child)
			if err != nil {
				return nil, nil, err
			}
			info.SubAgents = append(info.SubAgents, ci)
			n.Kind, n.Agent = graph.AgentNode, a
		}
		cfg.Nodes = append(cfg.Nodes, n)
	}
	for i, e := range c.Edges {
		edges, err := parseEdge(e)
		if err != nil {
			return nil, nil, fail(fmt.Sprintf("edges[%d]", i), err)
		}
		cfg.Edges = append(cfg.Edges, edges...)
	}
	w, err := graph.New(cfg)
	if err != nil {
		return nil, nil, fail("edges", err)
	}
	return w, info, nil
}

// checkNodeMode refuses an LlmAgent in task mode placed directly as a
// graph node, as the seed's ADK does, unless direct (an app that declares
// adk_behavior "2.x", which runs it as ADK 2.13 does).
func checkNodeMode(c *AgentConfig, direct bool) error {
	switch c.Mode {
	case "", "single_turn", "chat":
		return nil
	case "task":
		if direct {
			return nil
		}
		return fmt.Errorf("agent %s has mode task: a task-mode LlmAgent cannot be a graph node directly; "+
			"a chat-mode coordinator delegates to it as a sub-agent, a task: node wraps it, "+
			"and an app with adk_behavior \"2.x\" runs it directly as ADK 2.13 does", c.Name)
	}
	return fmt.Errorf("agent %s: mode %q is not single_turn, task or chat", c.Name, c.Mode)
}

// parseEdge turns an edges entry into edges, as ADK parses edge items.
func parseEdge(e EdgeRef) ([]graph.Edge, error) {
	if e.edge != nil {
		for k := range e.edge.Extra {
			return nil, fmt.Errorf("%s: unknown field", k)
		}
		if e.edge.From == "" || e.edge.To == "" {
			return nil, errors.New("from and to are required")
		}
		routes, err := routeValues(e.edge.Route)
		if err != nil {
			return nil, fmt.Errorf("route: %w", err)
		}
		return []graph.Edge{{From: e.edge.From, To: e.edge.To, Routes: routes}}, nil
	}
	if len(e.chain) < 2 {
		return nil, errors.New("a chain needs at least two elements")
	}
	var out []graph.Edge
	var tails []string
	for i, el := range e.chain {
		if el.Kind == yaml.MappingNode {
			if len(el.Content) == 0 {
				return nil, fmt.Errorf("[%d]: Routing map must not be empty. Provide at least one route -> node mapping.", i) //nolint:staticcheck // ST1005: ADK's message, word for word.
			}
			if i > 0 && e.chain[i-1].Kind == yaml.MappingNode {
				return nil, fmt.Errorf("[%d]: Consecutive routing maps are not allowed in a chain. Split them into separate edge items.", i) //nolint:staticcheck // ST1005: ADK's message, word for word.
			}
		}
		var heads []routed
		switch el.Kind {
		case yaml.ScalarNode:
			heads = []routed{{to: el.Value}}
		case yaml.SequenceNode:
			for _, item := range el.Content {
				if item.Kind != yaml.ScalarNode {
					return nil, fmt.Errorf("[%d]: a fan-out lists node names", i)
				}
				heads = append(heads, routed{to: item.Value})
			}
		case yaml.MappingNode:
			if i == 0 {
				return nil, errors.New("[0]: a chain starts with a node, not a routing map")
			}
			for j := 0; j+1 < len(el.Content); j += 2 {
				route, err := routeKey(el.Content[j])
				if err != nil {
					return nil, fmt.Errorf("[%d]: %w", i, err)
				}
				targets := []*yaml.Node{el.Content[j+1]}
				if el.Content[j+1].Kind == yaml.SequenceNode {
					targets = el.Content[j+1].Content
				}
				for _, t := range targets {
					if t.Kind != yaml.ScalarNode {
						return nil, fmt.Errorf("[%d]: a route leads to node names", i)
					}
					heads = append(heads, routed{to: t.Value, route: route})
				}
			}
		default:
			return nil, fmt.Errorf("[%d]: not a node name, a list or a routing map", i)
		}
		for _, from := range tails {
			for _, h := range heads {
				ed := graph.Edge{From: from, To: h.to}
				if h.route != nil {
					ed.Routes = []*structpb.Value{h.route}
				}
				out = append(out, ed)
			}
		}
		tails = tails[:0]
		for _, h := range heads {
			tails = append(tails, h.to)
		}
	}
	return out, nil
}

type routed struct {
	to    string
	route *structpb.Value
}

// routeKey reads a routing map's key: a bool, an integer or a string.
func routeKey(n *yaml.Node) (*structpb.Value, error) {
	switch n.Tag {
	case "!!bool":
		b, err := strconv.ParseBool(n.Value)
		if err != nil {
			return nil, err
		}
		return structpb.NewBoolValue(b), nil
	case "!!int":
		i, err := strconv.ParseInt(n.Value, 0, 64)
		if err != nil {
			return nil, err
		}
		return structpb.NewNumberValue(float64(i)), nil
	case "!!str":
		return structpb.NewStringValue(n.Value), nil
	}
	return nil, fmt.Errorf("route %q: a route is a bool, an integer or a string", n.Value)
}

// routeValues reads an edge's route: one value or a list.
func routeValues(r any) ([]*structpb.Value, error) {
	if r == nil {
		return nil, nil
	}
	items, ok := r.([]any)
	if !ok {
		items = []any{r}
	}
	var out []*structpb.Value
	for _, it := range items {
		switch v := it.(type) {
		case bool:
			out = append(out, structpb.NewBoolValue(v))
		case int:
			out = append(out, structpb.NewNumberValue(float64(v)))
		case string:
			out = append(out, structpb.NewStringValue(v))
		default:
			return nil, fmt.Errorf("%v: a route is a bool, an integer or a string", it)
		}
	}
	return out, nil
}

// checkAuthConfig checks a node's auth_config: a scheme with a type, and
// an optional raw credential with an auth type, written in snake_case or
// camelCase.
func checkAuthConfig(m map[string]any) error {
	get := func(m map[string]any, snake, camel string) any {
		if v, ok := m[snake]; ok {
			return v
		}
		return m[camel]
	}
	for k := range m {
		switch k {
		case "auth_scheme", "authScheme", "raw_auth_credential", "rawAuthCredential", "credential_key", "credentialKey":
		default:
			return fmt.Errorf("%s: unknown field", k)
		}
	}
	scheme, ok := get(m, "auth_scheme", "authScheme").(map[string]any)
	if !ok {
		return errors.New("auth_scheme: required, a mapping with a type")
	}
	if t, _ := scheme["type"].(string); t == "" {
		return errors.New("auth_scheme.type: required (apiKey, http, oauth2 or openIdConnect)")
	}
	if raw := get(m, "raw_auth_credential", "rawAuthCredential"); raw != nil {
		rm, ok := raw.(map[string]any)
		if !ok {
			return errors.New("raw_auth_credential: must be a mapping")
		}
		if t, _ := get(rm, "auth_type", "authType").(string); t == "" {
			return errors.New("raw_auth_credential.auth_type: required")
		}
	}
	if k := get(m, "credential_key", "credentialKey"); k != nil {
		if s, ok := k.(string); !ok || s == "" || len(s) > 256 {
			return errors.New("credential_key: a string of at most 256 bytes")
		}
	}
	return nil
}
