package server_test

import (
	"fmt"
	"os"
	"testing"
	"testing/fstest"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/procstat"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// BenchmarkRunMCPStdioCallMemoryStoreScriptedModel measures a Run
// invocation of an agent with an MCP toolset (npm's server-everything over
// stdio, one process for the whole benchmark): "no_call" answers at once,
// "echo_call" calls the server's echo tool first (one more model call, two
// more events and the MCP round trip). The session store is in memory and
// the model scripted; cpu-ns/op is this process's CPU (client and service,
// not the node server's).
func BenchmarkRunMCPStdioCallMemoryStoreScriptedModel(b *testing.B) {
	entry := os.Getenv("AGENTSVC_TEST_MCP_EVERYTHING")
	if entry == "" {
		b.Skip("AGENTSVC_TEST_MCP_EVERYTHING is not set; run under scripts/with-mcp.sh")
	}
	agent := fmt.Sprintf(`name: desk_agent
model: m
tools:
  - name: MCPToolset
    args:
      stdio_server_params: {command: node, args: [%q, stdio]}
      tool_filter: [echo]
`, entry)
	for _, mode := range []string{"no_call", "echo_call"} {
		b.Run(mode, func(b *testing.B) {
			fx := newFixture(b, withApp(fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(agent)}}))
			fx.model.SetRecording(false)
			ctx := b.Context()
			turn := func() {
				created, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
				if err != nil {
					b.Fatal(err)
				}
				if mode == "echo_call" {
					fx.model.Enqueue(et.Call("echo", `{"message":"hi"}`))
				}
				fx.model.Enqueue(et.Text("Hello."))
				events, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: created.Session.Id,
					NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Hi"}}}})
				if err != nil {
					b.Fatal(err)
				}
				if mode == "echo_call" && events[1].GetContent().GetParts()[0].GetFunctionResponse().GetResponse().GetFields()["isError"].GetBoolValue() {
					b.Fatal("the echo call failed")
				}
			}
			procstat.Loop(b, turn)
		})
	}
}
