package config

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/runtime/tools/mcp"
)

// TestLoadMCPToolset: ADK's McpToolsetConfig forms give the connection
// parameters; toolsets with the same parameters share one server.
func TestLoadMCPToolset(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"desk/root_agent.yaml": {Data: []byte(`name: root
model: m
tools:
  - name: MCPToolset
    args:
      stdio_server_params: {command: npx, args: [-y, server], env: {K: v}, cwd: /tmp}
      tool_filter: [read_file]
  - name: google.adk.tools.mcp_tool.McpToolset
    args:
      streamable_http_connection_params: {url: "http://mcp:8080/mcp", headers: {Authorization: Bearer x}, timeout: 2.5, sse_read_timeout: 60}
      tool_name_prefix: fs
sub_agents:
  - config_path: child.yaml
`)},
		"desk/child.yaml": {Data: []byte(`name: child
model: m
tools:
  - name: McpToolset
    args:
      stdio_connection_params:
        server_params: {command: npx, args: [-y, server], env: {K: v}, cwd: /tmp}
`)},
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	app := apps[0]
	if got := len(app.mcpServers); got != 2 {
		t.Fatalf("%d servers, want 2 (the stdio one shared)", got)
	}
	root := app.Root.mcpToolsets
	want := mcp.Params{Transport: mcp.Streamable, URL: "http://mcp:8080/mcp", Headers: map[string]string{"Authorization": "Bearer x"},
		Timeout: 2500 * time.Millisecond, ReadTimeout: time.Minute}
	if diff := cmp.Diff(want, root[1].params); diff != "" {
		t.Errorf("http params (-want +got):\n%s", diff)
	}
	if root[0].params.Key() != app.Root.subAgents[0].mcpToolsets[0].params.Key() {
		t.Error("the two stdio toolsets do not share their server")
	}
	rt, info, err := Build(app)
	if err != nil {
		t.Fatal(err)
	}
	if len(rt.Closers) != 2 {
		t.Errorf("app closers = %d, want 2", len(rt.Closers))
	}
	if got := info.RootAgent.Tools[0].GetName(); got != "MCPToolset" {
		t.Errorf("tool info = %q", got)
	}
}

func TestLoadMCPToolsetErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ args, want string }{
		{`{}`, "tools[0].args: exactly one of stdio_server_params"},
		{`{stdio_server_params: {command: a}, sse_connection_params: {url: "http://x"}}`, "exactly one of"},
		{`{stdio_server_params: {args: [x]}}`, "tools[0].args: stdio_server_params.command: required"},
		{`{stdio_connection_params: {timeout: 3}}`, "stdio_connection_params.server_params: required"},
		{`{stdio_connection_params: {server_params: {command: a}, timeout: -1}}`, "stdio_connection_params.timeout: -1 must be above 0"},
		{`{sse_connection_params: {url: "ftp://x"}}`, `sse_connection_params.url: "ftp://x" is not an http(s) URL`},
		{`{stdio_server_params: {command: a}, bogus: 1}`, `unknown field "bogus"`},
		{`{stdio_server_params: {command: a}, auth_scheme: {type: http}}`, "MCP authentication is not supported"},
		{`{stdio_server_params: {command: a}, tool_name_prefix: "9x"}`, "tool_name_prefix"},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{"desk/root_agent.yaml": {Data: []byte("name: root\nmodel: m\ntools:\n  - name: MCPToolset\n    args: " + tt.args + "\n")}}
		_, err := LoadAll(fsys)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "desk/root_agent.yaml: ") {
			t.Errorf("%s: error %v, want one naming the file and %q", tt.args, err, tt.want)
		}
	}
}
