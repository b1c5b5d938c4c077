package llmagent_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

func TestBehaviorT7Confirmation(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		answer   string
		wantResp string
		ran      int
	}{
		{"approved", `{"confirmed":true}`, `root_agent: response transfer_money{"result":"sent 5"}`, 1},
		{"rejected", `{"confirmed":false}`, `root_agent: response transfer_money{"error":"This tool call is rejected."}`, 0},
		{"approved as a JSON string", `{"response":"{\"confirmed\": true}"}`, `root_agent: response transfer_money{"result":"sent 5"}`, 1},
		{"malformed denies", `{"confirmed":"yes"}`, `root_agent: response transfer_money{"error":"This tool call is rejected."}`, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ran := 0
			tool, err := tools.NewFunction(tools.FunctionConfig{Name: "transfer_money", RequireConfirmation: true,
				Run: func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
					ran++
					return "sent 5", nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			h, m, sid := setup(t, newAgent(t, llmagent.Config{Tools: []runtime.Tool{tool}}),
				[]*v1.LlmResponse{et.Call("transfer_money", `{"amount":5}`), et.Text("all done")})
			events := h.RunText(t, sid, "send 5")
			if len(events) != 3 {
				t.Fatalf("events = %v", et.Events(events))
			}
			call, request, resp := events[0], events[1], events[2]
			callID := call.Content.Parts[0].FunctionCall.Id
			req := request.Content.Parts[0].FunctionCall
			wantArgs := map[string]any{
				"originalFunctionCall": map[string]any{"id": callID, "name": "transfer_money", "args": map[string]any{"amount": 5.0}},
				"toolConfirmation": map[string]any{"confirmed": false,
					"hint": "Please approve or reject the tool call transfer_money() by responding with a FunctionResponse with an expected ToolConfirmation payload."},
			}
			if d := cmp.Diff(wantArgs, req.Args.AsMap()); req.Name != "adk_request_confirmation" || d != "" {
				t.Errorf("confirmation request %s (-want +got):\n%s", req.Name, d)
			}
			if request.Content.Role != "user" || len(request.LongRunningToolIds) != 1 || request.LongRunningToolIds[0] != req.Id {
				t.Errorf("request role %q long-running %v", request.Content.Role, request.LongRunningToolIds)
			}
			if got := et.Events([]*v1.Event{resp})[0]; got != `root_agent: response transfer_money{"error":"This tool call requires confirmation, please approve or reject."}` {
				t.Errorf("response = %s", got)
			}
			if !resp.Actions.SkipSummarization || resp.Actions.RequestedToolConfirmations[callID] == nil {
				t.Errorf("response actions = %v", resp.Actions)
			}
			if m.Calls() != 1 || ran != 0 {
				t.Fatalf("model calls %d, tool runs %d before the answer", m.Calls(), ran)
			}

			answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
				Id: req.Id, Name: "adk_request_confirmation", Response: et.Struct(tt.answer)}}}}
			events, err = h.Run(t.Context(), sid, answer, runtime.RunConfig{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]string{tt.wantResp, "root_agent: all done"}, et.Events(events)); d != "" {
				t.Errorf("after the answer (-want +got):\n%s", d)
			}
			if events[0].Content.Parts[0].FunctionResponse.Id != callID || ran != tt.ran {
				t.Errorf("resumed response id %s (want the original %s), runs %d", events[0].Content.Parts[0].FunctionResponse.Id, callID, ran)
			}
			// The confirmation exchange never reaches the model, and the
			// resumed response replaces the pending one (C5).
			if d := cmp.Diff([]string{
				"user: send 5", `model: call transfer_money{"amount":5}`,
				"user: " + tt.wantResp[len("root_agent: "):],
			}, et.Contents(m.Requests()[1].Contents)); d != "" {
				t.Errorf("second request (-want +got):\n%s", d)
			}
		})
	}
}
