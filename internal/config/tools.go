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
	info    []*api.ToolInfo
}

// buildTools resolves an agent's tools: entries. A name that is not built
// in is a remote tool, which takes no args.
func buildTools(c *AgentConfig) (*agentTools, error) {
	out := &agentTools{}
	seen := make(map[string]bool, len(c.Tools))
	for i, ref := range c.Tools {
		field := fmt.Sprintf("tools[%d]", i)
		name := ref.Name
		switch {
		case name == "":
			return nil, fmt.Errorf("%s: %s.name: required", c.file, field)
		case !functionName.MatchString(name):
			return nil, fmt.Errorf("%s: %s.name: %q is not a function name (a letter or underscore, then up to 63 letters, digits, underscores, dots, colons or dashes)",
				c.file, field, name)
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
		case name == transferToolName:
			return nil, fmt.Errorf("%s: %s.name: %q is added by the service to agents that can transfer; it cannot be a remote tool",
				c.file, field, name)
		case strings.HasPrefix(name, "adk_"):
			return nil, fmt.Errorf("%s: %s.name: %q: names starting with adk_ are reserved for the framework", c.file, field, name)
		case len(ref.Args) > 0:
			return nil, fmt.Errorf("%s: %s.args: %q is a remote tool (not built in), declared by the client; it takes no args",
				c.file, field, name)
		}
		out.remote = append(out.remote, name)
		out.info = append(out.info, &api.ToolInfo{Name: name, Remote: true})
	}
	return out, nil
}

// toolsets returns the agent's remote toolset, or nil when it has no remote
// tools.
func (t *agentTools) toolsets() []runtime.Toolset {
	if len(t.remote) == 0 {
		return nil
	}
	return []runtime.Toolset{tools.NewRemote(t.remote...)}
}

// RemoteTools returns the sorted names of the app's remote tools: the tools
// its agents name that are not built in. A Connect client declares them.
func (a *AppConfig) RemoteTools() []string {
	set := map[string]bool{}
	var walk func(c *AgentConfig)
	walk = func(c *AgentConfig) {
		for _, ref := range c.Tools {
			if _, ok := builtinTool(ref.Name); !ok && ref.Name != "" {
				set[ref.Name] = true
			}
		}
		for _, child := range c.subAgents {
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
