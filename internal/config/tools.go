package config

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// functionName is what the Gemini API accepts as a function name.
var functionName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)

// transferToolName is the tool the flow adds to an agent with transfer
// targets; an Agent Config cannot name it as a remote tool.
const transferToolName = "transfer_to_agent"

// builtinTool returns the built-in tool of that name: the entries of
// [tools.Builtins], the registry of tools that live in the service.
func builtinTool(name string) (runtime.Tool, bool) {
	t, ok := tools.Builtins[name]
	return t, ok
}

// agentTools are an LlmAgent's tools: the built-in ones, the names of the
// remote ones (declared by the client of each Connect invocation), and what
// GetApp shows of them, in the order of the Agent Config.
type agentTools struct {
	builtin []runtime.Tool
	remote  []string
	mcp     []runtime.Toolset
	info    []*api.ToolInfo
}

// adkToolsPackage is the Python package of ADK's tools; an Agent Config
// may name them by their full path.
const adkToolsPackage = "google.adk.tools."

// unimplemented are the names ADK resolves to its own tools that agentsvc
// does not provide: naming one fails start-up rather than turning it into a
// client tool.
var unimplemented = map[string]bool{
	"APIHubToolset": true, "ApiRegistry": true, "DiscoveryEngineSearchTool": true, "VertexAiSearchTool": true,
	"FunctionTool": true, "BaseTool": true, "ToolContext": true, "AuthToolArguments": true,
	"SearchResultMode": true, "TransferToAgentTool": true,
}

// toolName is the name a tool entry resolves to: ADK's tools by their
// short name, and a Python-style path (pkg.module.fn) by its last segment,
// as adk-python names a FunctionTool after its function.
func toolName(ref string) (name string, adk bool) {
	if rest, ok := strings.CutPrefix(ref, adkToolsPackage); ok {
		return rest[strings.LastIndexByte(rest, '.')+1:], true
	}
	return ref[strings.LastIndexByte(ref, '.')+1:], false
}

// buildTools resolves an agent's tools: entries. A name that is not an
// ADK tool is a remote tool, which takes no args.
func buildTools(c *AgentConfig) (*agentTools, error) {
	out := &agentTools{}
	seen := make(map[string]bool, len(c.Tools))
	for i, ref := range c.Tools {
		field := fmt.Sprintf("tools[%d]", i)
		if ref.Name == "" {
			return nil, fmt.Errorf("%s: %s.name: required", c.file, field)
		}
		name, adk := toolName(ref.Name)
		if t := c.mcpToolsets[i]; t != nil {
			if t.toolset != nil { // nil before the app is loaded whole
				out.mcp = append(out.mcp, t.toolset)
			}
			out.info = append(out.info, t.info())
			continue
		}
		if name == "ExampleTool" {
			t, err := buildExampleTool(ref.argsNode)
			if err != nil {
				return nil, fmt.Errorf("%s: %s.args: %w", c.file, field, err)
			}
			out.builtin = append(out.builtin, t)
			out.info = append(out.info, &api.ToolInfo{Name: "ExampleTool", Description: t.Description()})
			continue
		}
		if name == "AgentTool" {
			t, info, err := buildAgentTool(c, i)
			if err != nil {
				return nil, err
			}
			if seen[t.Name()] {
				return nil, fmt.Errorf("%s: %s: %q is listed twice", c.file, field, t.Name())
			}
			seen[t.Name()] = true
			out.builtin = append(out.builtin, t)
			out.info = append(out.info, info)
			continue
		}
		longRunning := false
		if name == "LongRunningFunctionTool" {
			fn, err := longRunningFunction(ref.Args)
			if err != nil {
				return nil, fmt.Errorf("%s: %s.args: %w", c.file, field, err)
			}
			name, _ = toolName(fn)
			adk, longRunning = false, true
		}
		switch {
		case !functionName.MatchString(name):
			return nil, fmt.Errorf("%s: %s.name: %q is not a function name (a letter or underscore, then up to 63 letters, digits, underscores, colons or dashes; a dotted path names its last segment)",
				c.file, field, ref.Name)
		case seen[name]:
			return nil, fmt.Errorf("%s: %s.name: %q is listed twice", c.file, field, name)
		}
		seen[name] = true
		if t, ok := builtinTool(name); ok {
			if len(ref.Args) > 0 {
				return nil, fmt.Errorf("%s: %s.args: built-in tool %q takes no args", c.file, field, name)
			}
			out.builtin = append(out.builtin, t)
			out.info = append(out.info, &api.ToolInfo{Name: name, Description: t.Description(), LongRunning: t.IsLongRunning()})
			continue
		}
		switch {
		case unimplemented[name] || adk:
			return nil, fmt.Errorf("%s: %s.name: %q is an ADK tool that agentsvc does not provide", c.file, field, ref.Name)
		case name == transferToolName:
			return nil, fmt.Errorf("%s: %s.name: %q is added by the service to agents that can transfer; it cannot be a remote tool",
				c.file, field, name)
		case strings.HasPrefix(name, "adk_"):
			return nil, fmt.Errorf("%s: %s.name: %q: names starting with adk_ are reserved for the framework", c.file, field, name)
		case len(ref.Args) > 0 && !longRunning:
			return nil, fmt.Errorf("%s: %s.args: %q is a remote tool (not built in), declared by the client; it takes no args",
				c.file, field, name)
		}
		out.remote = append(out.remote, name)
		out.info = append(out.info, &api.ToolInfo{Name: name, Remote: true, LongRunning: longRunning})
	}
	return out, nil
}

// longRunningFunction reads LongRunningFunctionTool's args: {func: path}.
func longRunningFunction(args map[string]any) (string, error) {
	for k := range args {
		if k != "func" {
			return "", fmt.Errorf("%s: LongRunningFunctionTool takes only func", k)
		}
	}
	fn, _ := args["func"].(string)
	if fn == "" {
		return "", fmt.Errorf("func: required: the path of the function, which the client declares by its last segment")
	}
	return fn, nil
}

// toolsets returns the agent's toolsets: the remote one, when it has
// remote tools, then its MCP toolsets.
func (t *agentTools) toolsets() []runtime.Toolset {
	var out []runtime.Toolset
	if len(t.remote) > 0 {
		out = append(out, tools.NewRemote(t.remote...))
	}
	return append(out, t.mcp...)
}

// RemoteTools returns the sorted names of the app's remote tools: the tools
// its agents name that are not built in. A Connect client declares them.
func (a *AppConfig) RemoteTools() []string {
	set := map[string]bool{}
	var walk func(c *AgentConfig)
	walk = func(c *AgentConfig) {
		tools, err := buildTools(c)
		if err != nil {
			return // Build reports it
		}
		for _, name := range tools.remote {
			set[name] = true
		}
		for _, child := range c.subAgents {
			walk(child)
		}
		for _, child := range c.agentTools {
			walk(child)
		}
	}
	walk(a.Root)
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
