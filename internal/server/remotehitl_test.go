package server_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// TestRemoteToolAsksForConfirmation: a client tool whose result asks for
// the user's confirmation follows ADK's flow (T7) as a local tool's would:
// the adk_request_confirmation call comes before the tool's response, and
// the user's answer runs the client's tool again with the confirmation on
// its tool call.
func TestRemoteToolAsksForConfirmation(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	// As in ADK, the model reads the tool's pending answer at once (the tool
	// did not skip summarization), and again after the user's answer.
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("Waiting for your approval."), et.Text("Sunny, confirmed."))

	stream := s.connect(t, ctx, startMsg(sid, "Weather?", weatherTool))
	call := recvUntil(t, stream, isToolCall)
	tc := call[len(call)-1].GetToolCall()
	if tc.Confirmation != nil {
		t.Fatalf("first call carries a confirmation: %v", tc.Confirmation)
	}
	ask := &api.ToolResult{CallId: tc.CallId, Response: structpb.NewStructValue(et.Struct(`{"status":"needs approval"}`)),
		Actions: &v1.EventActions{RequestedToolConfirmations: map[string]*v1.ToolConfirmation{tc.CallId: {Hint: "Share your location?"}}}}
	if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: ask}}); err != nil {
		t.Fatal(err)
	}
	rest, err := recvAll(stream)
	if err != nil {
		t.Fatal(err)
	}
	var req *v1.FunctionCall
	for _, m := range rest {
		for _, p := range m.GetEvent().GetContent().GetParts() {
			if p.FunctionCall != nil && p.FunctionCall.Name == "adk_request_confirmation" {
				req = p.FunctionCall
			}
		}
	}
	if req == nil || req.Args.Fields["toolConfirmation"].GetStructValue().Fields["hint"].GetStringValue() != "Share your location?" {
		t.Fatalf("no adk_request_confirmation with the tool's hint in %q", lines(rest))
	}
	if got := lines(rest)[1:]; len(got) != 3 || got[0] != `event desk_agent: response get_weather{"status":"needs approval"}` ||
		got[1] != "event desk_agent: Waiting for your approval." {
		t.Errorf("run 1 after the confirmation request = %q", got)
	}

	answer := &api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{
		Run: &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid, NewMessage: &v1.Content{Role: "user",
			Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: req.Id, Name: "adk_request_confirmation",
				Response: et.Struct(`{"confirmed":true}`)}}}}},
		Tools: []*api.ToolDeclaration{weatherTool},
	}}}
	stream = s.connect(t, ctx, answer)
	again := recvUntil(t, stream, isToolCall)
	tc2 := again[len(again)-1].GetToolCall()
	if tc2.CallId != tc.CallId || !tc2.GetConfirmation().GetConfirmed() {
		t.Fatalf("re-run call %s confirmation %v, want %s confirmed", tc2.CallId, tc2.GetConfirmation(), tc.CallId)
	}
	if err := stream.Send(resultMsg(tc2.CallId, structpb.NewStringValue("sunny"))); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(stream); err != nil {
		t.Fatal(err)
	}
	stored := s.storedEvents(t, ctx, sid)
	if last := stored[len(stored)-1]; last != "desk_agent: Sunny, confirmed." {
		t.Errorf("stored = %q", stored)
	}
}
