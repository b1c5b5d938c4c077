package mcp

import (
	"log/slog"
	"os"
	"testing"

	"github.com/agentsvc/agentsvc/internal/procstat"
)

// BenchmarkStdioCallServerEverything measures one call of the echo tool of
// npm's @modelcontextprotocol/server-everything over stdio on the shared
// session, with its result rendered: ns/op is the round trip, cpu-ns/op the
// CPU of this process alone (the node server's is not counted).
func BenchmarkStdioCallServerEverything(b *testing.B) {
	entry := os.Getenv("AGENTSVC_TEST_MCP_EVERYTHING")
	if entry == "" {
		b.Skip("AGENTSVC_TEST_MCP_EVERYTHING is not set; run under scripts/with-mcp.sh")
	}
	s := NewServer(Params{Transport: Stdio, Command: "node", Args: []string{entry, "stdio"}}, slog.New(slog.DiscardHandler))
	b.Cleanup(func() { _ = s.Close() })
	ctx := b.Context()
	call := func() {
		res, err := s.Call(ctx, "echo", map[string]any{"message": "hi"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := render(res); err != nil {
			b.Fatal(err)
		}
	}
	procstat.Loop(b, call)
}
