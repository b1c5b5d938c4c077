package mcp

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// TestBehaviorMCPGracefulErrorHandlingOff follows google-adk 1.39.1 run
// against a server whose tool answers with an error: with the flag on
// (the default) the model reads ADK's error object; with
// ADK_DISABLE_MCP_GRACEFUL_ERROR_HANDLING the McpError fails the run, and an
// on_tool_error callback still answers for it, given str() of the error.
func TestBehaviorMCPGracefulErrorHandlingOff(t *testing.T) {
	ts := newTestServer(t)
	s := ts.client(t, 5*time.Second)
	tests := []struct {
		name     string
		off      bool
		callback bool
		want     []string
		wantErr  string
	}{
		{name: "on", want: []string{`root_agent: call fails{"text":"x"}`,
			`root_agent: response fails{"error":"MCP tool execution failed: no luck"}`, "root_agent: done"}},
		{name: "off", off: true, want: []string{`root_agent: call fails{"text":"x"}`}, wantErr: "no luck"},
		{name: "off, on_tool_error answers", off: true, callback: true, want: []string{`root_agent: call fails{"text":"x"}`,
			`root_agent: response fails{"handled":"no luck"}`, "root_agent: done"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := llmagent.Config{Name: "root_agent", Model: "scripted-mcp", Toolsets: []runtime.Toolset{NewToolset(s, []string{"fails"}, "")}}
			if tt.callback {
				cfg.ToolCallbacks.OnError = []runtime.OnToolErrorCallback{
					func(_ *runtime.ToolContext, _ runtime.Tool, _ *structpb.Struct, err error) (*structpb.Struct, error) {
						return structpb.NewStruct(map[string]any{"handled": err.Error()})
					}}
			}
			agent, err := llmagent.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			h := et.New(t, agent)
			h.Models.Add(scripted.New("scripted-mcp", et.Call("fails", `{"text":"x"}`), et.Text("done")))
			if tt.off {
				h.Runner.App.Features = features.Set{}.With(features.MCPGracefulErrorHandling, false)
			}
			events, err := h.Run(t.Context(), h.NewSession(t, nil), et.UserText("go"),
				runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls})
			var rerr *runtime.Error
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("run: %v", err)
			case tt.wantErr != "" && (!errors.As(err, &rerr) || rerr.Message != tt.wantErr || rerr.Reason != "MCP_TOOL_FAILED"):
				t.Fatalf("run error = %v, want %q", err, tt.wantErr)
			}
			if d := cmp.Diff(tt.want, et.Events(events)); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
		})
	}
}

// TestBehaviorMCPErrorTexts: each failure is worded as ADK words it, in
// the error object with the flag on and as the raised exception's text
// with it off.
func TestBehaviorMCPErrorTexts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err       error
		on, raise string
	}{
		{&jsonrpc.Error{Code: -32000, Message: "no luck"}, "MCP tool execution failed: no luck", "no luck"},
		{&timeoutError{after: 5 * time.Second},
			"MCP tool execution failed: Timed out while waiting for response to ClientRequest. Waited 5.0 seconds.",
			"Timed out while waiting for response to ClientRequest. Waited 5.0 seconds."},
		{mcp.ErrConnectionClosed, "MCP tool execution failed: Connection closed", "Connection closed"},
		{&connectError{err: errors.New("refused")}, "Unexpected error during MCP tool execution: Failed to create MCP session: refused",
			"Failed to create MCP session: refused"},
	}
	for _, tt := range tests {
		if got := errorResponse(tt.err)["error"]; got != tt.on {
			t.Errorf("errorResponse(%v) = %q, want %q", tt.err, got, tt.on)
		}
		var rerr *runtime.Error
		if err := toolError(tt.err); !errors.As(err, &rerr) || rerr.Message != tt.raise || !errors.Is(err, tt.err) {
			t.Errorf("toolError(%v) = %v, want %q", tt.err, err, tt.raise)
		}
	}
}
