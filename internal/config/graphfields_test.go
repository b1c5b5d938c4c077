package config

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/runtime/graph"
)

// TestWorkflowNodeFieldsLoad: the node and workflow fields of ADK 2.13's
// BaseNode, Node and FunctionNode load onto the engine's nodes.
func TestWorkflowNodeFieldsLoad(t *testing.T) {
	t.Parallel()
	app, err := buildFiles(map[string]string{"root_agent.yaml": `agent_class: Workflow
name: wf
input_schema: {type: object}
output_schema: {type: object, properties: {total: {type: number}}}
rerun_on_resume: true
nodes:
  - {name: a, function: a, description: Splits the order., input_schema: {type: string}, output_schema: {type: array},
     parameter_binding: state, wait_for_output: true}
  - {name: b, function: b, parallel_worker: true, max_parallel_workers: 2}
  - {name: c, function: c, require_confirmation: true, rerun_on_resume: true}
  - {name: s, config_path: s.yaml, retry_config: {max_attempts: 3}, timeout: 30}
  - {name: j, join: true, retry_config: {max_attempts: 2}, timeout: 5}
edges:
  - [START, a, b, c, s, j]
`, "s.yaml": "name: s\nmodel: m\ninstruction: Summarise.\n"})
	if err != nil {
		t.Fatal(err)
	}
	type shape struct {
		Name, Description              string
		Wait, Parallel, Confirm, Rerun bool
		MaxWorkers, Attempts           int
		Timeout                        time.Duration
	}
	var got []shape
	for _, n := range app.Tree.Root().(*graph.Workflow).Nodes() {
		s := shape{Name: n.Name, Description: n.Description, Wait: n.WaitForOutput, Parallel: n.ParallelWorker,
			Confirm: n.RequireConfirmation, Rerun: n.RerunOnResume, MaxWorkers: n.MaxParallelWorkers, Timeout: n.Timeout}
		if n.Retry != nil {
			s.Attempts = n.Retry.MaxAttempts
		}
		got = append(got, s)
	}
	want := []shape{
		{Name: "a", Description: "Splits the order.", Wait: true},
		{Name: "b", Parallel: true, MaxWorkers: 2},
		{Name: "c", Confirm: true, Rerun: true},
		{Name: "s", Attempts: 3, Timeout: 30 * time.Second},
		{Name: "j", Attempts: 2, Timeout: 5 * time.Second},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
}

// TestWorkflowNodeFieldErrors: what cannot run as ADK 2.13 runs it is
// refused at load, naming the field, with ADK's text where it has one.
func TestWorkflowNodeFieldErrors(t *testing.T) {
	t.Parallel()
	const head = "agent_class: Workflow\nname: wf\n"
	tests := []struct{ name, yaml, want string }{
		{"workers without parallel", "nodes: [{name: a, function: a, max_parallel_workers: 2}]\nedges: [[START, a]]\n",
			"nodes[0].max_parallel_workers: max_parallel_workers can only be set when parallel_worker is True."},
		{"no workers", "nodes: [{name: a, function: a, parallel_worker: true, max_parallel_workers: 0}]\nedges: [[START, a]]\n",
			"nodes[0].max_parallel_workers: max_parallel_workers must be greater than or equal to 1."},
		{"parallel join", "nodes: [{name: a, join: true, parallel_worker: true}]\nedges: [[START, a]]\n",
			"nodes[0].parallel_worker: only a function node or a single-turn LlmAgent runs as a parallel worker here"},
		{"confirmation without rerun", "nodes: [{name: a, function: a, require_confirmation: true}]\nedges: [[START, a]]\n",
			"nodes[0].require_confirmation: FunctionNode with require_confirmation requires rerun_on_resume=True. " +
				"The node must rerun after confirmation is provided."},
		{"confirmed tool", "nodes: [{name: a, tool: {name: t}, require_confirmation: true, rerun_on_resume: true}]\nedges: [[START, a]]\n",
			"nodes[0].require_confirmation: only a function node asks for a confirmation"},
		{"state schema", "nodes: [{name: a, function: a, state_schema: my_app.State}]\nedges: [[START, a]]\n",
			"nodes[0].state_schema: not supported: ADK's state_schema is a pydantic model class"},
		{"node_input binding", "nodes: [{name: a, function: a, parameter_binding: node_input}]\nedges: [[START, a]]\n",
			`nodes[0].parameter_binding: "node_input" is not supported`},
		{"unknown binding", "nodes: [{name: a, function: a, parameter_binding: args}]\nedges: [[START, a]]\n",
			`nodes[0].parameter_binding: "args" is not state or node_input`},
		{"long description", "nodes: [{name: a, function: a, description: " + strings.Repeat("d", 5000) + "}]\nedges: [[START, a]]\n",
			"nodes[0].description: at most 4096 bytes"},
		{"rerun on a sequence", "", "rerun_on_resume only apply to a Workflow"},
		{"parallel chat agent", "", "nodes[0].parallel_worker: only a function node or a single-turn LlmAgent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"root_agent.yaml": head + tt.yaml}
			if tt.name == "parallel chat agent" {
				files = map[string]string{"root_agent.yaml": head + "nodes: [{name: c, config_path: c.yaml, parallel_worker: true}]\n" +
					"edges: [[START, c]]\n", "c.yaml": "name: c\nmodel: m\nmode: chat\n"}
			} else if tt.yaml == "" {
				files = map[string]string{"root_agent.yaml": "agent_class: SequentialAgent\nname: sq\nrerun_on_resume: false\n" +
					"sub_agents: [{config_path: a.yaml}]\n", "a.yaml": "name: a\nmodel: m\n"}
			}
			_, err := buildFiles(files)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestWorkflowTaskNodeDirect: a task-mode LlmAgent placed directly as a
// node runs in an app that declares adk_behavior "2.x", as ADK 2.13 runs
// it; an app that leaves it unset keeps the seed's refusal.
func TestWorkflowTaskNodeDirect(t *testing.T) {
	t.Parallel()
	files := map[string]string{"root_agent.yaml": "agent_class: Workflow\nname: wf\nnodes: [{name: e, config_path: e.yaml}]\nedges: [[START, e]]\n",
		"e.yaml": "name: e\nmodel: m\nmode: task\n"}
	if _, err := buildFiles(files); err == nil || !strings.Contains(err.Error(), "agent e has mode task") {
		t.Errorf("unset: err = %v", err)
	}
	files["app.yaml"] = "adk_behavior: \"2.x\"\n"
	app, err := buildFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	if n := app.Tree.Root().(*graph.Workflow).Nodes()[0]; n.Kind != graph.AgentNode {
		t.Errorf("kind = %v", n.Kind)
	}
}
