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

func TestBehaviorT8CredentialRequest(t *testing.T) {
	t.Parallel()
	authConfig := et.Struct(`{"authScheme":{"type":"oauth2"},"credentialKey":"gmail"}`)
	var tokens []string
	tool, err := tools.NewFunction(tools.FunctionConfig{Name: "read_mail", AuthConfig: authConfig,
		Run: func(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
			token := tctx.AuthResponse.GetFields()["exchangedAuthCredential"].GetStructValue().
				GetFields()["oauth2"].GetStructValue().GetFields()["accessToken"].GetStringValue()
			tokens = append(tokens, token)
			return map[string]any{"unread": 3}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	h, m, sid := setup(t, newAgent(t, llmagent.Config{Tools: []runtime.Tool{tool}}),
		[]*v1.LlmResponse{et.Call("read_mail", `{}`), et.Text("not authorised yet"), et.Text("3 unread")})
	events := h.RunText(t, sid, "check mail")
	if len(events) != 4 {
		t.Fatalf("events = %v", et.Events(events))
	}
	call, request, resp := events[0], events[1], events[2]
	callID := call.Content.Parts[0].FunctionCall.Id
	req := request.Content.Parts[0].FunctionCall
	want := map[string]any{"functionCallId": callID, "authConfig": authConfig.AsMap()}
	if d := cmp.Diff(want, req.Args.AsMap()); req.Name != "adk_request_credential" || d != "" {
		t.Errorf("credential request %s (-want +got):\n%s", req.Name, d)
	}
	if len(request.LongRunningToolIds) != 1 || request.LongRunningToolIds[0] != req.Id || request.Content.Role != "user" {
		t.Errorf("request: long-running %v, role %q", request.LongRunningToolIds, request.Content.Role)
	}
	if got := et.Events([]*v1.Event{resp})[0]; got != `root_agent: response read_mail{"result":null}` {
		t.Errorf("response = %s", got)
	}
	if d := cmp.Diff(authConfig.AsMap(), resp.Actions.RequestedAuthConfigs[callID].AsMap()); d != "" {
		t.Errorf("requested_auth_configs (-want +got):\n%s", d)
	}
	if len(tokens) != 0 {
		t.Fatal("the tool ran without a credential")
	}

	answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
		Id: req.Id, Name: "adk_request_credential",
		Response: et.Struct(`{"credentialKey":"gmail","exchangedAuthCredential":{"authType":"oauth2","oauth2":{"accessToken":"tok-1"}}}`)}}}}
	events, err = h.Run(t.Context(), sid, answer, runtime.RunConfig{})
	if err != nil {
		t.Fatal(err)
	}
	wantEvents := []string{`root_agent: response read_mail{"unread":3}`, "root_agent: 3 unread"}
	if d := cmp.Diff(wantEvents, et.Events(events)); d != "" {
		t.Errorf("after the credential (-want +got):\n%s", d)
	}
	if len(tokens) != 1 || tokens[0] != "tok-1" || events[0].Content.Parts[0].FunctionResponse.Id != callID {
		t.Errorf("tool saw tokens %v; response id %s", tokens, events[0].Content.Parts[0].FunctionResponse.Id)
	}
	if m.Calls() != 3 {
		t.Errorf("model calls = %d", m.Calls())
	}
}
