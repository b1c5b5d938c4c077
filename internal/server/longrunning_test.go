package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// TestAnswerToLongRunningCallKeepsInvocation: the user's answer to a
// long-running call, sent as the dev UI sends it (a function response,
// no invocation id) through REST /run_sse, continues the invocation that
// made the call where the app's ADK release does: ADK 2.13 for every app,
// ADK 1.39.1 for a resumable app (resuming it); a plain 1.x app starts a
// new invocation.
func TestAnswerToLongRunningCallKeepsInvocation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, appYAML string
		same          bool
	}{
		{"1.x", "", false},
		{"1.x resumable", "resumability_config:\n  is_resumable: true\n", true},
		{"2.x", "adk_behavior: \"2.x\"\n", true},
		{"2.x resumable", "adk_behavior: \"2.x\"\nresumability_config:\n  is_resumable: true\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			files := fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte("name: desk_agent\nmodel: " + modelName +
				"\ninstruction: Help.\ntools:\n  - name: get_user_choice\n")}}
			if tt.appYAML != "" {
				files[appName+"/app.yaml"] = &fstest.MapFile{Data: []byte(tt.appYAML)}
			}
			fx := newFixture(t, withApp(files))
			url := fx.serveHTTP(t).URL
			if _, err := fx.sessions.CreateSession(t.Context(), &api.CreateSessionRequest{AppName: appName, UserId: userID, SessionId: "s"}); err != nil {
				t.Fatal(err)
			}
			fx.model.Enqueue(et.Call("get_user_choice", `{"options":["tea","coffee"]}`), et.Text("Tea it is."))
			first := sseEvents(t, url, `{"appName":"desk","userId":"u1","sessionId":"s","newMessage":{"role":"user","parts":[{"text":"Tea or coffee?"}]}}`)
			var call *v1.FunctionCall
			for _, ev := range first {
				for _, p := range ev.GetContent().GetParts() {
					if p.GetFunctionCall() != nil {
						call = p.GetFunctionCall()
					}
				}
			}
			if call == nil {
				t.Fatalf("no call in %v", first)
			}
			resp, _ := structpb.NewStruct(map[string]any{"result": "tea"})
			answer, _ := json.Marshal(map[string]any{"appName": appName, "userId": userID, "sessionId": "s",
				"newMessage": map[string]any{"role": "user", "parts": []any{map[string]any{"functionResponse": map[string]any{
					"id": call.GetId(), "name": call.GetName(), "response": resp.AsMap()}}}}})
			second := sseEvents(t, url, string(answer))
			if len(second) == 0 {
				t.Fatal("the answer yielded no event")
			}
			was, now := first[0].GetInvocationId(), second[len(second)-1].GetInvocationId()
			if (was == now) != tt.same {
				t.Errorf("invocation ids %s then %s, want the same: %v", was, now, tt.same)
			}
			sess, err := fx.sessions.GetSession(t.Context(), &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: "s"})
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range sess.Session.Events {
				if ev.Author == "user" && len(ev.GetContent().GetParts()) > 0 && ev.Content.Parts[0].GetFunctionResponse() != nil &&
					(ev.InvocationId == was) != tt.same {
					t.Errorf("the stored answer's invocation id %s, first invocation %s, want the same: %v", ev.InvocationId, was, tt.same)
				}
			}
		})
	}
}

// sseEvents posts body to /run_sse and returns its events.
func sseEvents(t *testing.T, url, body string) []*v1.Event {
	t.Helper()
	code, out := postJSON(t, url+"/run_sse", body)
	if code != http.StatusOK {
		t.Fatalf("/run_sse: %d %s", code, out)
	}
	var events []*v1.Event
	for _, frame := range strings.Split(strings.TrimSpace(out), "\n\n") {
		ev := &v1.Event{}
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal([]byte(strings.TrimPrefix(frame, "data: ")), ev); err != nil {
			t.Fatalf("frame %q: %v", frame, err)
		}
		events = append(events, ev)
	}
	return events
}
