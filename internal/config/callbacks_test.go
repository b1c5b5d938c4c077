package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

func TestLoadCallbacks(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"desk/root_agent.yaml": {Data: []byte(`name: pipeline
agent_class: SequentialAgent
before_agent_callbacks:
  - name: audit.start
sub_agents:
  - config_path: worker.yaml
`)},
		"desk/worker.yaml": {Data: []byte(`name: worker
model: m
before_model_callbacks:
  - name: my_library.callbacks.guard
  - name: cache
after_model_callbacks: [{name: redact}]
on_model_error_callback: {name: fallback}
before_tool_callbacks: [{name: check_args}]
after_tool_callbacks: [{name: trim}]
on_tool_error_callbacks: [{name: explain}]
after_agent_callbacks: [{name: audit.end}]
`)},
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	app, info, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]*api.CallbackInfo{{Name: "start", Field: "before_agent_callbacks"}}, info.RootAgent.Callbacks, protocmp.Transform()); diff != "" {
		t.Errorf("root callbacks (-want +got):\n%s", diff)
	}
	want := []*api.CallbackInfo{
		{Name: "end", Field: "after_agent_callbacks"},
		{Name: "guard", Field: "before_model_callbacks"},
		{Name: "cache", Field: "before_model_callbacks"},
		{Name: "redact", Field: "after_model_callbacks"},
		{Name: "fallback", Field: "on_model_error_callback"},
		{Name: "check_args", Field: "before_tool_callbacks"},
		{Name: "trim", Field: "after_tool_callbacks"},
		{Name: "explain", Field: "on_tool_error_callbacks"},
	}
	if diff := cmp.Diff(want, info.RootAgent.SubAgents[0].Callbacks, protocmp.Transform()); diff != "" {
		t.Errorf("worker callbacks (-want +got):\n%s", diff)
	}
	if n := len(app.Tree.Root().Callbacks().Before); n != 1 {
		t.Errorf("pipeline before_agent callbacks = %d, want 1", n)
	}
	worker := app.Tree.Root().SubAgents()[0].(*llmagent.Agent).Config()
	if got := [6]int{len(worker.ModelCallbacks.Before), len(worker.ModelCallbacks.After), len(worker.ModelCallbacks.OnError),
		len(worker.ToolCallbacks.Before), len(worker.ToolCallbacks.After), len(worker.ToolCallbacks.OnError)}; got != [6]int{2, 1, 1, 1, 1, 1} {
		t.Errorf("worker model/tool callbacks = %v", got)
	}
}

func TestLoadCallbacksErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		yaml, want string
	}{
		{"name: a\nmodel: m\nbefore_model_callbacks: [{name: ''}]\n", "a/root_agent.yaml: before_model_callbacks[0].name: required"},
		{"name: a\nmodel: m\nafter_tool_callbacks: [{name: pkg.fn, args: [1]}]\n",
			`a/root_agent.yaml: after_tool_callbacks[0].args: callback "pkg.fn" lives in the client, which binds it by name; it takes no args`},
		{"name: a\nmodel: m\nbefore_tool_callbacks: [{name: pkg.my-fn}]\n", `a/root_agent.yaml: before_tool_callbacks[0].name: "pkg.my-fn" does not end in a function name`},
		{"name: a\nmodel: m\nbefore_tool_callbacks: [{name: fn, code: x}]\n", "a/root_agent.yaml: before_tool_callbacks[0].code: unknown field"},
		{"name: a\nmodel: m\non_model_error_callback: {name: a}\non_model_error_callbacks: [{name: b}]\n",
			"a/root_agent.yaml: on_model_error_callback: set it or on_model_error_callbacks, not both"},
		{"name: a\nagent_class: LoopAgent\nbefore_model_callbacks: [{name: fn}]\nsub_agents: [{config_path: b.yaml}]\n",
			"a/root_agent.yaml: before_model_callbacks: only applies to LlmAgent, not LoopAgent"},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{"a/root_agent.yaml": {Data: []byte(tt.yaml)}, "a/b.yaml": {Data: []byte("name: b\nmodel: m\n")}}
		apps, err := LoadAll(fsys)
		if err == nil {
			_, _, err = Build(apps[0])
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want %q", tt.yaml, err, tt.want)
		}
	}
}
