package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

func TestLoadTools(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"desk/root_agent.yaml": {Data: []byte(`name: desk
model: m
tools:
  - name: get_weather
  - name: exit_loop
  - name: book_table
sub_agents:
  - config_path: helper.yaml
`)},
		"desk/helper.yaml": {Data: []byte("name: helper\nmodel: m\ntools:\n  - name: get_weather\n  - name: send_mail\n")},
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"book_table", "get_weather", "send_mail"}, apps[0].RemoteTools()); diff != "" {
		t.Errorf("RemoteTools (-want +got):\n%s", diff)
	}
	app, info, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	root := app.Tree.Root().(*llmagent.Agent).Config()
	if len(root.Tools) != 1 || root.Tools[0] != tools.ExitLoop {
		t.Errorf("built-in tools = %v, want exit_loop", root.Tools)
	}
	if len(root.Toolsets) != 1 {
		t.Fatalf("toolsets = %v, want the remote toolset", root.Toolsets)
	}
	if remote, ok := root.Toolsets[0].(*tools.Remote); !ok || !cmp.Equal(remote.Names(), []string{"get_weather", "book_table"}) {
		t.Errorf("remote toolset = %#v, want get_weather, book_table", root.Toolsets[0])
	}
	wantTools := []*api.ToolInfo{
		{Name: "get_weather", Remote: true},
		{Name: "exit_loop", Description: tools.ExitLoop.Description()},
		{Name: "book_table", Remote: true},
	}
	if diff := cmp.Diff(wantTools, info.RootAgent.Tools, protocmp.Transform()); diff != "" {
		t.Errorf("root tools info (-want +got):\n%s", diff)
	}
	wantHelper := []*api.ToolInfo{{Name: "get_weather", Remote: true}, {Name: "send_mail", Remote: true}}
	if diff := cmp.Diff(wantHelper, info.RootAgent.SubAgents[0].Tools, protocmp.Transform()); diff != "" {
		t.Errorf("helper tools info (-want +got):\n%s", diff)
	}
}

func TestAgentWithoutToolsHasNoToolset(t *testing.T) {
	t.Parallel()
	apps, err := LoadAll(fstest.MapFS{"a/root_agent.yaml": {Data: []byte("name: a\nmodel: m\n")}})
	if err != nil {
		t.Fatal(err)
	}
	app, _, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	if cfg := app.Tree.Root().(*llmagent.Agent).Config(); len(cfg.Tools)+len(cfg.Toolsets) != 0 {
		t.Errorf("tools = %v, toolsets = %v, want none", cfg.Tools, cfg.Toolsets)
	}
	if got := apps[0].RemoteTools(); len(got) != 0 {
		t.Errorf("RemoteTools = %v, want none", got)
	}
}

func TestToolConfigErrorsNameFileAndField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tools, want string
	}{
		{"no name", "  - args: {a: 1}\n", "s/sub.yaml: tools[0].name: required"},
		{"bad name", "  - name: get weather\n", `s/sub.yaml: tools[0].name: "get weather" is not a function name`},
		{"name too long", "  - name: " + strings.Repeat("x", 65) + "\n", "s/sub.yaml: tools[0].name: "},
		{"twice", "  - name: a\n  - name: b\n  - name: a\n", `s/sub.yaml: tools[2].name: "a" is listed twice`},
		{"args on a remote tool", "  - name: a\n  - name: get_weather\n    args: {city: Paris}\n",
			`s/sub.yaml: tools[1].args: "get_weather" is a remote tool (not built in), declared by the client; it takes no args`},
		{"args on a built-in tool", "  - name: exit_loop\n    args: {now: true}\n",
			`s/sub.yaml: tools[0].args: built-in tool "exit_loop" takes no args`},
		{"transfer tool", "  - name: transfer_to_agent\n", `s/sub.yaml: tools[0].name: "transfer_to_agent" is added by the service`},
		{"framework name", "  - name: adk_request_confirmation\n", `s/sub.yaml: tools[0].name: "adk_request_confirmation": names starting with adk_ are reserved`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{
				"s/root_agent.yaml": {Data: []byte("name: root\nmodel: m\nsub_agents:\n  - config_path: sub.yaml\n")},
				"s/sub.yaml":        {Data: []byte("name: sub\nmodel: m\ntools:\n" + tt.tools)},
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

// TestADKToolNames: ADK's tool names and paths resolve as adk-python
// resolves them; a Python-style path names a client tool by its last
// segment; a LongRunningFunctionTool is a long-running client tool; an
// ADK tool agentsvc does not provide fails start-up.
func TestADKToolNames(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"desk/root_agent.yaml": {Data: []byte(`name: desk
model: gemini-2.5-flash
tools:
  - name: google.adk.tools.google_search
  - name: url_context
  - name: get_user_choice
  - name: my_pkg.tools.get_weather
  - name: LongRunningFunctionTool
    args: {func: my_pkg.tools.ask_manager}
`)}}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	_, info, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	want := []*api.ToolInfo{
		{Name: "google_search", Description: "google_search"},
		{Name: "url_context", Description: "url_context"},
		{Name: "get_user_choice", Description: tools.GetUserChoice.Description(), LongRunning: true},
		{Name: "get_weather", Remote: true},
		{Name: "ask_manager", Remote: true, LongRunning: true},
	}
	if diff := cmp.Diff(want, info.RootAgent.Tools, protocmp.Transform()); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ask_manager", "get_weather"}, apps[0].RemoteTools()); diff != "" {
		t.Errorf("RemoteTools (-want +got):\n%s", diff)
	}
	for _, yaml := range []string{
		"tools:\n  - name: VertexAiSearchTool\n",
		"tools:\n  - name: google.adk.tools.bigquery.BigQueryToolset\n",
		"tools:\n  - name: LongRunningFunctionTool\n", "tools:\n  - name: LongRunningFunctionTool\n    args: {fn: x}\n",
	} {
		apps, err := LoadAll(fstest.MapFS{"a/root_agent.yaml": {Data: []byte("name: a\nmodel: m\n" + yaml)}})
		if err == nil {
			_, _, err = Build(apps[0])
		}
		if err == nil || !strings.HasPrefix(err.Error(), "a/root_agent.yaml: tools[0].") {
			t.Errorf("%q: err = %v, want one naming the file and the tool", yaml, err)
		}
	}
}
