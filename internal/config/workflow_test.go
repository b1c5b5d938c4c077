package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentsvc/agentsvc/internal/runtime/workflow"
)

func TestLoadWorkflowApps(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"pipe/root_agent.yaml": {Data: []byte("agent_class: SequentialAgent\nname: pipe\nsub_agents:\n  - config_path: fan.yaml\n  - config_path: loop.yaml\n")},
		"pipe/fan.yaml":        {Data: []byte("agent_class: ParallelAgent\nname: fan\nsub_agents:\n  - config_path: a.yaml\n  - config_path: b.yaml\n")},
		"pipe/loop.yaml":       {Data: []byte("agent_class: LoopAgent\nname: loop\nmax_iterations: 3\nsub_agents:\n  - config_path: c.yaml\n")},
		"pipe/a.yaml":          {Data: []byte("name: a\nmodel: m\n")},
		"pipe/b.yaml":          {Data: []byte("name: b\nmodel: m\n")},
		"pipe/c.yaml":          {Data: []byte("name: c\nmodel: m\n")},
		"pipe/app.yaml":        {Data: []byte("resumability_config:\n  is_resumable: true\n")},
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	app, info, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	if !app.Resumable {
		t.Error("app.yaml resumability_config not applied")
	}
	root, ok := app.Tree.Root().(*workflow.Sequential)
	if !ok {
		t.Fatalf("root is %T", app.Tree.Root())
	}
	if _, ok := root.SubAgents()[0].(*workflow.Parallel); !ok {
		t.Errorf("fan is %T", root.SubAgents()[0])
	}
	if l, ok := app.Tree.Find("loop").(*workflow.Loop); !ok || l.MaxIterations() != 3 {
		t.Errorf("loop = %#v", app.Tree.Find("loop"))
	}
	if info.RootAgent.AgentClass != "SequentialAgent" || len(info.RootAgent.SubAgents) != 2 {
		t.Errorf("info = %v", info)
	}
}

func TestWorkflowConfigErrorsNameFileAndField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, root, want string
	}{
		{"model on a workflow agent", "agent_class: SequentialAgent\nname: s\nmodel: m\nsub_agents:\n  - config_path: a.yaml\n", "s/root_agent.yaml: model: only applies to LlmAgent"},
		{"several LLM fields, the first by name", "agent_class: SequentialAgent\nname: s\nmodel: m\ntools: [{name: exit_loop}]\ninstruction: i\noutput_key: k\nsub_agents:\n  - config_path: a.yaml\n", "s/root_agent.yaml: instruction: only applies to LlmAgent"},
		{"loop bound on a sequence", "agent_class: SequentialAgent\nname: s\nmax_iterations: 2\nsub_agents:\n  - config_path: a.yaml\n", "s/root_agent.yaml: max_iterations: only applies to LoopAgent"},
		{"no sub-agents", "agent_class: ParallelAgent\nname: s\n", "s/root_agent.yaml: sub_agents: a ParallelAgent needs at least one"},
		{"unknown class", "agent_class: MagicAgent\nname: s\n", `s/root_agent.yaml: agent_class: "MagicAgent" is not one of`},
		{"unknown field", "name: s\nmodel: m\ntemperature: 2\n", "s/root_agent.yaml: temperature: unknown field"},
		{"negative loop bound", "agent_class: LoopAgent\nname: s\nmax_iterations: -1\nsub_agents:\n  - config_path: a.yaml\n", "s/root_agent.yaml: max_iterations: must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{
				"s/root_agent.yaml": {Data: []byte(tt.root)},
				"s/a.yaml":          {Data: []byte("name: a\nmodel: m\n")},
			}
			apps, err := LoadAll(fsys)
			if err == nil {
				_, _, err = Build(apps[0])
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestAppSettingsErrors(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]string{
		"plugins:\n  - name: logger\n": `s/app.yaml: plugins[0]: no plugin named "logger" (built-in plugins: ContextFilterPlugin`,
		"compaction: 3\n":              "s/app.yaml: compaction: unknown field",
	} {
		fsys := fstest.MapFS{
			"s/root_agent.yaml": {Data: []byte("name: a\nmodel: m\n")},
			"s/app.yaml":        {Data: []byte(body)},
		}
		if _, err := LoadAll(fsys); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", body, err, want)
		}
	}
}
