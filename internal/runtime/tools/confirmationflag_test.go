package tools_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// notEnabled is the RuntimeError google-adk 1.39.1 raises when a tool asks
// for confirmation with ADK_DISABLE_TOOL_CONFIRMATION set.
const notEnabled = "Feature FeatureName.TOOL_CONFIRMATION is not enabled."

// TestBehaviorToolConfirmationOff follows google-adk 1.39.1 with
// ADK_DISABLE_TOOL_CONFIRMATION=1: a FunctionTool with
// require_confirmation, or a tool calling tool_context.request_confirmation,
// raises ADK's RuntimeError, which fails the run unless an on_tool_error
// callback answers for it (given str() of the error). With the feature on
// the same calls ask for confirmation.
func TestBehaviorToolConfirmationOff(t *testing.T) {
	t.Parallel()
	clientCalls := 0
	ch := channelFunc(func(_ context.Context, call *tools.ClientCall) (*tools.ClientResult, error) {
		clientCalls++
		// The client's tool asks for confirmation itself, and sets state.
		return &tools.ClientResult{Response: structpb.NewStringValue("asked"), Actions: &v1.EventActions{
			StateDelta:                 et.Struct(`{"asked":true}`),
			RequestedToolConfirmations: map[string]*v1.ToolConfirmation{call.CallID: {Hint: "ok?"}},
		}}, nil
	})
	transfer, err := tools.NewFunction(tools.FunctionConfig{Name: "transfer", RequireConfirmation: true,
		Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) { return "sent", nil }})
	if err != nil {
		t.Fatal(err)
	}
	asks, err := tools.NewFunction(tools.FunctionConfig{Name: "asks",
		Run: func(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
			if err := tctx.RequestConfirmation("ok?", nil); err != nil {
				return nil, err
			}
			return "asked", nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	confirmed := clientTool(t, tools.ClientDeclaration{Name: "confirmed", RequireConfirmation: true}, ch, time.Minute)
	askingClient := clientTool(t, tools.ClientDeclaration{Name: "asking_client"}, ch, time.Minute)

	tests := []struct {
		tool     string
		on       bool
		callback bool
		want     string // the response; "" when the run fails
	}{
		{tool: "transfer", on: true, want: `{"error":"This tool call requires confirmation, please approve or reject."}`},
		{tool: "transfer"},
		{tool: "transfer", callback: true, want: `{"handled":"` + notEnabled + `"}`},
		{tool: "asks", on: true, want: `{"result":"asked"}`},
		{tool: "asks"},
		{tool: "asks", callback: true, want: `{"handled":"` + notEnabled + `"}`},
		{tool: "confirmed"},
		{tool: "asking_client", on: true, want: `{"result":"asked"}`},
		{tool: "asking_client"},
		{tool: "asking_client", callback: true, want: `{"handled":"` + notEnabled + `"}`},
	}
	for _, tt := range tests {
		cfg := llmagent.Config{Name: "root_agent", Model: modelName, Tools: []runtime.Tool{transfer, asks},
			Toolsets: []runtime.Toolset{tools.NewRemote("confirmed", "asking_client")}}
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
		if !tt.on {
			h.Runner.App.Features = features.Set{}.With(features.ToolConfirmation, false)
		}
		h.Models.Add(scripted.New(modelName, et.Call(tt.tool, `{}`), et.Text("done")))
		sid := h.NewSession(t, nil)
		var events []*v1.Event
		var runErr error
		for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
			NewMessage: et.UserText("hi"), RunConfig: runtime.RunConfig{MaxLLMCalls: 10}, Client: client{confirmed, askingClient}}) {
			if err != nil {
				runErr = err
				break
			}
			events = append(events, ev)
		}
		name := tt.tool
		if tt.on {
			name += " on"
		}
		if tt.callback {
			name += " with a callback"
		}
		var rerr *runtime.Error
		if tt.want == "" {
			if !errors.As(runErr, &rerr) || rerr.Message != notEnabled {
				t.Errorf("%s: run error = %v, want %q", name, runErr, notEnabled)
			}
			if state := h.Session(t, sid).State.AsMap(); len(state) != 0 {
				t.Errorf("%s: state = %v, want none", name, state)
			}
			continue
		}
		if runErr != nil {
			t.Errorf("%s: run: %v", name, runErr)
			continue
		}
		var got string
		for _, line := range et.Events(events) {
			if resp, ok := cutResponse(line, tt.tool); ok {
				got = resp
			}
		}
		if d := cmp.Diff(tt.want, got); d != "" {
			t.Errorf("%s: response (-want +got):\n%s", name, d)
		}
	}
	if clientCalls != 3 {
		t.Errorf("client calls = %d, want 3 (none for the tool that needs confirmation first)", clientCalls)
	}
}

// cutResponse returns the response of the named tool in an event line.
func cutResponse(line, tool string) (string, bool) {
	prefix := "root_agent: response " + tool
	if len(line) > len(prefix) && line[:len(prefix)] == prefix {
		return line[len(prefix):], true
	}
	return "", false
}
