package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
)

func TestEventsCompactionConfig(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"s/root_agent.yaml": {Data: []byte("name: a\nmodel: gemini-2.5-flash\n")},
		"s/app.yaml":        {Data: []byte("events_compaction_config:\n  compaction_interval: 3\n  overlap_size: 1\n  token_threshold: 5000\n  event_retention_size: 0\n")},
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	app, _, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	want := compaction.Config{Interval: 3, Overlap: 1, Model: "gemini-2.5-flash", TokenThreshold: 5000}
	if app.Compaction == nil || *app.Compaction != want {
		t.Errorf("compaction = %+v, want %+v", app.Compaction, want)
	}
}

func TestEventsCompactionConfigErrors(t *testing.T) {
	t.Parallel()
	const llmRoot = "name: a\nmodel: m\n"
	tests := []struct {
		name, root, app, want string
	}{
		{"no interval", llmRoot, "events_compaction_config:\n  overlap_size: 1\n",
			"s/app.yaml: events_compaction_config.compaction_interval: required"},
		{"zero interval", llmRoot, "events_compaction_config:\n  compaction_interval: 0\n  overlap_size: 1\n",
			"s/app.yaml: events_compaction_config.compaction_interval: must be at least 1, got 0"},
		{"no overlap", llmRoot, "events_compaction_config:\n  compaction_interval: 2\n",
			"s/app.yaml: events_compaction_config.overlap_size: required"},
		{"negative overlap", llmRoot, "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: -1\n",
			"s/app.yaml: events_compaction_config.overlap_size: must not be negative, got -1"},
		{"unknown field", llmRoot, "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n  threshold: 100\n",
			"s/app.yaml: events_compaction_config.threshold: unknown field"},
		{"threshold alone", llmRoot, "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n  token_threshold: 100\n",
			"s/app.yaml: events_compaction_config: token_threshold and event_retention_size must be set together."},
		{"retention alone", llmRoot, "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n  event_retention_size: 3\n",
			"s/app.yaml: events_compaction_config: token_threshold and event_retention_size must be set together."},
		{"zero threshold", llmRoot, "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n  token_threshold: 0\n  event_retention_size: 3\n",
			"s/app.yaml: events_compaction_config.token_threshold: must be greater than 0, got 0"},
		{"negative retention", llmRoot, "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n  token_threshold: 10\n  event_retention_size: -1\n",
			"s/app.yaml: events_compaction_config.event_retention_size: must not be negative, got -1"},
		{"not a number", llmRoot, "events_compaction_config:\n  compaction_interval: often\n  overlap_size: 0\n",
			"s/app.yaml: "},
		{"workflow root", "agent_class: SequentialAgent\nname: s\nsub_agents:\n  - config_path: a.yaml\n",
			"events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n",
			"s/app.yaml: events_compaction_config: the root agent's model writes the summaries"},
		{"root without a model", "name: a\n", "events_compaction_config:\n  compaction_interval: 2\n  overlap_size: 0\n",
			"s/app.yaml: events_compaction_config: the root agent's model writes the summaries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{
				"s/root_agent.yaml": {Data: []byte(tt.root)},
				"s/a.yaml":          {Data: []byte("name: b\nmodel: m\n")},
				"s/app.yaml":        {Data: []byte(tt.app)},
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

func TestAppPlugins(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"s/root_agent.yaml": {Data: []byte("name: a\nmodel: m\n")},
		"s/app.yaml": {Data: []byte("plugins:\n  - name: ReflectAndRetryToolPlugin\n    args:\n      max_retries: 2\n" +
			"  - name: GlobalInstructionPlugin\n    args:\n      global_instruction: Be kind.\n")},
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	app, _, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := app.Plugins.Names(); strings.Join(got, ",") != "reflect_retry_tool_plugin,global_instruction" {
		t.Errorf("plugins = %v", got)
	}
}

// TestAppFilePlugins loads the plugins for files and multimodal tool
// results, with and without arguments.
func TestAppFilePlugins(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"s/root_agent.yaml": {Data: []byte("name: a\nmodel: m\n")},
		"s/app.yaml": {Data: []byte(`plugins:
  - name: SaveFilesAsArtifactsPlugin
    args:
      attach_file_reference: false
  - name: MultimodalToolResultsPlugin
  - name: DebugLoggingPlugin
    args:
      output_path: /tmp/agentsvc-debug.yaml
      include_session_state: false
      include_system_instruction: false
      max_file_bytes: 1048576
  - name: DebugLoggingPlugin
    args: {name: second_log}
`)},
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	app, _, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	want := "save_files_as_artifacts_plugin,multimodal_tool_results_plugin,debug_logging_plugin,second_log"
	if got := app.Plugins.Names(); strings.Join(got, ",") != want {
		t.Errorf("plugins = %v, want %s", got, want)
	}
}

func TestAppPluginErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ body, want string }{
		{"plugins:\n  - name: ContextFilterPlugin\n    args:\n      keep: 2\n",
			"s/app.yaml: plugins[0]: args.keep: ContextFilterPlugin takes no such argument"},
		{"plugins:\n  - name: ContextFilterPlugin\n    with: 2\n",
			"s/app.yaml: plugins[0].with: unknown field"},
		{"plugins:\n  - name: ContextFilterPlugin\n  - name: ContextFilterPlugin\n",
			`s/app.yaml: plugins: plugin "context_filter_plugin" is registered twice`},
		{"plugins:\n  - name: SaveFilesAsArtifactsPlugin\n    args:\n      attach_file_reference: maybe\n",
			"s/app.yaml: plugins[0]: args.attach_file_reference: want true or false, got maybe"},
		{"plugins:\n  - name: MultimodalToolResultsPlugin\n    args:\n      parts: 3\n",
			"s/app.yaml: plugins[0]: args.parts: MultimodalToolResultsPlugin takes no such argument"},
		{"plugins:\n  - name: ContextFilterPlugin\n  - name: DebugLoggingPlugin\n    args:\n      max_file_bytes: 0\n",
			"s/app.yaml: plugins[1]: args.max_file_bytes: must be a positive integer, got 0"},
		{"plugins:\n  - name: DebugLoggingPlugin\n    args:\n      output_path: [a.yaml]\n",
			"s/app.yaml: plugins[0]: args.output_path: want a string"},
		{"plugins:\n  - name: DebugLoggingPlugin\n    args:\n      include_session_state: 1\n",
			"s/app.yaml: plugins[0]: args.include_session_state: want true or false, got 1"},
		{"plugins:\n  - name: DebugLoggingPlugin\n  - name: DebugLoggingPlugin\n",
			`s/app.yaml: plugins: plugin "debug_logging_plugin" is registered twice`},
		{"plugins:\n  - name: DebugLogPlugin\n",
			`s/app.yaml: plugins[0]: no plugin named "DebugLogPlugin"`},
	} {
		fsys := fstest.MapFS{
			"s/root_agent.yaml": {Data: []byte("name: a\nmodel: m\n")},
			"s/app.yaml":        {Data: []byte(tt.body)},
		}
		if _, err := LoadAll(fsys); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: err = %v, want %q", tt.body, err, tt.want)
		}
	}
}

func TestADKBehavior(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, app string
		want      runtime.Behavior
		wantErr   string
	}{
		{name: "no app.yaml", want: runtime.Behavior1x},
		{name: "unset", app: "plugins: []\n", want: runtime.Behavior1x},
		{name: "1.x", app: "adk_behavior: \"1.x\"\n", want: runtime.Behavior1x},
		{name: "2.x", app: "adk_behavior: \"2.x\"\n", want: runtime.Behavior2x},
		{name: "unknown", app: "adk_behavior: \"3.x\"\n",
			wantErr: `s/app.yaml: adk_behavior: unknown ADK behaviour "3.x": want "1.x" or "2.x"`},
		{name: "number", app: "adk_behavior: 2\n",
			wantErr: `s/app.yaml: adk_behavior: unknown ADK behaviour "2": want "1.x" or "2.x"`},
		{name: "version", app: "adk_behavior: \"2.13\"\n",
			wantErr: `s/app.yaml: adk_behavior: unknown ADK behaviour "2.13"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{"s/root_agent.yaml": {Data: []byte("name: a\nmodel: m\n")}}
			if tt.app != "" {
				fsys["s/app.yaml"] = &fstest.MapFile{Data: []byte(tt.app)}
			}
			apps, err := LoadAll(fsys)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			app, _, err := Build(apps[0])
			if err != nil {
				t.Fatal(err)
			}
			if app.Behavior != tt.want {
				t.Errorf("behaviour = %v, want %v", app.Behavior, tt.want)
			}
		})
	}
}
