package config

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// buildFiles loads and builds the app "s" from files.
func buildFiles(files map[string]string) (*runtime.App, error) {
	fsys := fstest.MapFS{}
	for name, body := range files {
		fsys["s/"+name] = &fstest.MapFile{Data: []byte(body)}
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		return nil, err
	}
	app, _, err := Build(apps[0])
	return app, err
}

// edgeStrings writes edges as "from>to" or "from>to:route,route".
func edgeStrings(edges []graph.Edge) []string {
	var out []string
	for _, e := range edges {
		s := e.From + ">" + e.To
		for i, r := range e.Routes {
			sep := ","
			if i == 0 {
				sep = ":"
			}
			switch {
			case r.GetStringValue() != "":
				s += sep + r.GetStringValue()
			default:
				s += sep + strings.TrimSpace(r.String())
			}
		}
		out = append(out, s)
	}
	return out
}

func TestWorkflowYAML(t *testing.T) {
	t.Parallel()
	app, err := buildFiles(map[string]string{"root_agent.yaml": `agent_class: Workflow
name: wf
nodes:
  - {name: a, function: fa}
  - {name: b, function: b}
  - {name: c, function: c, retry_config: {max_attempts: 2}, timeout: 1.5}
  - {name: j, join: true}
  - {name: s, config_path: s.yaml}
  - {name: t, tool: {name: get_weather}}
edges:
  - [START, a, {x: b, 2: [c], true: s, __DEFAULT__: t}]
  - [b, [j, t]]
  - {from: c, to: j, route: [p, q]}
  - [s, j]
`, "s.yaml": "name: s\nmodel: m\ninstruction: Summarise.\n"})
	if err != nil {
		t.Fatal(err)
	}
	if app.Behavior != runtime.Behavior2x || !app.NodePaths {
		t.Errorf("behavior %v, node paths %v", app.Behavior, app.NodePaths)
	}
	w := app.Tree.Root().(*graph.Workflow)
	want := []string{"START>a", "a>b:x", "a>c:number_value:2", "a>s:bool_value:true", "a>t:__DEFAULT__", "b>j", "b>t", "c>j:p,q", "s>j"}
	if diff := cmp.Diff(want, edgeStrings(w.Edges())); diff != "" {
		t.Errorf("edges (-want +got):\n%s", diff)
	}
	kinds := map[string]graph.Kind{}
	for _, n := range w.Nodes() {
		kinds[n.Name] = n.Kind
	}
	if diff := cmp.Diff(map[string]graph.Kind{"a": graph.Function, "b": graph.Function, "c": graph.Function, "j": graph.Join,
		"s": graph.AgentNode, "t": graph.ToolNode}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if w.Nodes()[0].Function != "fa" || w.Nodes()[2].Retry.MaxAttempts != 2 || w.Nodes()[2].Timeout != 1500*time.Millisecond {
		t.Errorf("nodes = %v", w.Nodes())
	}
}

func TestWorkflowYAMLErrors(t *testing.T) {
	t.Parallel()
	const head = "agent_class: Workflow\nname: wf\n"
	for _, tc := range []struct {
		yaml, want string
	}{
		{"nodes: [{name: a, function: a}]\nedges: [[START, b]]\n", `s/root_agent.yaml: edges: edge START -> b: unknown node "b"`},
		{"nodes: [{name: a, function: a}, {name: b, function: b}]\nedges: [[START, a]]\n", "Graph validation failed. The following nodes are unreachable from START: ['b']"},
		{"nodes: [{name: a}]\nedges: [[START, a]]\n", "nodes[0]: set exactly one of function, config_path, join, tool and task"},
		{"nodes: [{name: a, function: a, join: true}]\nedges: [[START, a]]\n", "nodes[0]: set exactly one"},
		{"nodes: [{name: a, function: a, color: red}]\nedges: [[START, a]]\n", "nodes[0].color: unknown field"},
		{"nodes: [{name: a, function: a, retry_config: {max_attempts: 1000}}]\nedges: [[START, a]]\n", "nodes[0].retry_config.max_attempts: must be at most 100"},
		{"nodes: [{name: a, function: a}]\nedges: [[START, {1.5: a}]]\n", "edges[0]: [1]: route \"1.5\": a route is a bool, an integer or a string"},
		{"nodes: [{name: a, function: a}]\nedges: [[START]]\n", "edges[0]: a chain needs at least two elements"},
		{"nodes: [{name: a, function: a}]\nedges: [[START, a, {}]]\n", "edges[0]: [2]: Routing map must not be empty."},
		{"nodes: [{name: a, function: a, timeout: -1}]\nedges: [[START, a]]\n", "nodes[0].timeout: must be between 0 and 86400 seconds, got -1"},
		{"nodes: [{name: a, function: a, rerun_on_resume: true, auth_config: {auth_scheme: {type: apiKey}, color: red}}]\nedges: [[START, a]]\n",
			"nodes[0].auth_config.color: unknown field"},
		{"nodes: [{name: a, function: a, rerun_on_resume: true, auth_config: {raw_auth_credential: {auth_type: apiKey}}}]\nedges: [[START, a]]\n",
			"nodes[0].auth_config.auth_scheme: required"},
		{"nodes: [{name: a, function: a, rerun_on_resume: true, auth_config: {auth_scheme: {type: apiKey}, credential_key: " + strings.Repeat("k", 300) + "}}]\nedges: [[START, a]]\n",
			"nodes[0].auth_config.credential_key: a string of at most 256 bytes"},
		{"nodes: [{name: a, function: a}, {name: b, function: b}]\nedges: [[START, a, {x: b}, {y: a}]]\n",
			"edges[0]: [3]: Consecutive routing maps are not allowed in a chain."},
		{"nodes: [{name: a, function: a}, {name: b, function: b}]\nedges: [[START, a, b, a]]\n",
			"Unconditional cycle detected: a -> b -> a."},
		{"nodes: [{name: a, function: a, auth_config: {auth_scheme: {type: apiKey}}}]\nedges: [[START, a]]\n", "FunctionNode with auth_config requires rerun_on_resume=True"},
		{"nodes: [{name: a, function: a}]\nedges: [[START, a]]\nmodel: m\n", "model: only applies to LlmAgent"},
		{"nodes: [{name: a, function: a}]\nedges: [[START, a]]\nsub_agents: [{config_path: x.yaml}]\n", "sub_agents: a Workflow's agents are its nodes"},
	} {
		_, err := buildFiles(map[string]string{"root_agent.yaml": head + tc.yaml})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.yaml, err, tc.want)
		}
	}
	_, err := buildFiles(map[string]string{"root_agent.yaml": head + "nodes: [{name: e, config_path: e.yaml}]\nedges: [[START, e]]\n",
		"e.yaml": "name: e\nmodel: m\nmode: task\n"})
	if err == nil || !strings.Contains(err.Error(), "nodes[0]: agent e has mode task: a task-mode LlmAgent cannot be a graph node directly") {
		t.Errorf("task node: err = %v", err)
	}
	_, err = buildFiles(map[string]string{"root_agent.yaml": head + "nodes: [{name: a, function: a}]\nedges: [[START, a]]\n",
		"app.yaml": "adk_behavior: \"1.x\"\n"})
	if err == nil || !strings.Contains(err.Error(), "an app with a Workflow behaves as ADK 2.x") {
		t.Errorf("1.x app: err = %v", err)
	}
}
