package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestRemoteA2aAgentCallsServedApp: an app whose sub-agent is a
// RemoteA2aAgent calls another server's app over A2A: the answer comes
// back as the remote agent's event with ADK's a2a: metadata, and the next
// turn reuses the A2A context, so the remote app sees one conversation.
func TestRemoteA2aAgentCallsServedApp(t *testing.T) {
	t.Parallel()
	served := newFixture(t, withoutGRPC(), withApp(helpApp))
	ts := served.serveHTTP(t, server.WithA2A(""))
	front := fstest.MapFS{
		"front/root_agent.yaml": {Data: []byte("agent_class: SequentialAgent\nname: front\nsub_agents:\n  - config_path: remote.yaml\n")},
		"front/remote.yaml": {Data: []byte("agent_class: RemoteA2aAgent\nname: helper\ndescription: Answers.\nagent_card: " +
			ts.URL + "/a2a/help/.well-known/agent-card.json\ntimeout: 30\n")},
	}
	caller := newFixture(t, withApp(front))
	ctx := testContext(t)
	sess, err := caller.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: "front", UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	sid := sess.GetSession().GetId()
	served.model.Enqueue(et.Text("Sunny."), et.Text("Rain tomorrow."))

	events, err := caller.run(ctx, &api.RunRequest{AppName: "front", UserId: userID, SessionId: sid, NewMessage: et.UserText("Weather?")})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].GetAuthor() != "helper" || events[0].GetContent().GetParts()[0].GetText() != "Sunny." {
		t.Fatalf("events = %v", et.Events(events))
	}
	meta := events[0].GetCustomMetadata().GetFields()
	for _, k := range []string{"a2a:task_id", "a2a:context_id", "a2a:request", "a2a:response"} {
		if _, ok := meta[k]; !ok {
			t.Errorf("custom_metadata lacks %s: %v", k, meta)
		}
	}
	contextID := meta["a2a:context_id"].GetStringValue()

	if _, err := caller.run(ctx, &api.RunRequest{AppName: "front", UserId: userID, SessionId: sid, NewMessage: et.UserText("And tomorrow?")}); err != nil {
		t.Fatal(err)
	}
	remote, err := served.store.Get(ctx, sessions.GetRequest{AppName: "help", UserID: "A2A_USER_" + contextID, SessionID: contextID})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(et.Events(remote.Events), " | "), "user: Weather? | help_agent: Sunny. | user: And tomorrow? | help_agent: Rain tomorrow."; got != want {
		t.Fatalf("remote session = %q\nwant %q", got, want)
	}
}

// TestRemoteA2aAgentUnreachableCard: a card that cannot be fetched ends the
// remote agent's turn with ADK's error event, not a failed invocation.
func TestRemoteA2aAgentUnreachableCard(t *testing.T) {
	t.Parallel()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	front := fstest.MapFS{
		"front/root_agent.yaml": {Data: []byte("agent_class: SequentialAgent\nname: front\nsub_agents:\n  - config_path: remote.yaml\n")},
		"front/remote.yaml":     {Data: []byte("agent_class: RemoteA2aAgent\nname: helper\nagent_card: " + gone.URL + "/card.json\ntimeout: 5\n")},
	}
	caller := newFixture(t, withApp(front))
	ctx := testContext(t)
	sess, err := caller.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: "front", UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	events, err := caller.run(ctx, &api.RunRequest{AppName: "front", UserId: userID, SessionId: sess.GetSession().GetId(), NewMessage: et.UserText("Hi")})
	if err != nil {
		t.Fatal(err)
	}
	const want = "Failed to initialize remote A2A agent: Failed to initialize remote A2A agent helper: Failed to resolve AgentCard from URL "
	if len(events) != 1 || events[0].GetAuthor() != "helper" || !strings.HasPrefix(events[0].GetErrorMessage(), want) {
		t.Fatalf("events = %v", events)
	}
}

// TestRemoteA2aAgentInputRequired: a remote task that waits for input
// leaves its long-running call in the caller's session; the user's answer
// goes back to the same task and context, and the remote app finishes.
func TestRemoteA2aAgentInputRequired(t *testing.T) {
	t.Parallel()
	served := newFixture(t, withoutGRPC(), withApp(helpApp))
	ts := served.serveHTTP(t, server.WithA2A(""))
	front := fstest.MapFS{
		"front/root_agent.yaml": {Data: []byte("agent_class: SequentialAgent\nname: front\nsub_agents:\n  - config_path: remote.yaml\n")},
		"front/remote.yaml": {Data: []byte("agent_class: RemoteA2aAgent\nname: helper\nagent_card: " +
			ts.URL + "/a2a/help/.well-known/agent-card.json\n")},
	}
	caller := newFixture(t, withApp(front))
	ctx := testContext(t)
	sess, err := caller.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: "front", UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	sid := sess.GetSession().GetId()
	served.model.Enqueue(et.Call("get_user_choice", `{"options":["a","b"]}`), et.Text("You chose b."))

	events, err := caller.run(ctx, &api.RunRequest{AppName: "front", UserId: userID, SessionId: sid, NewMessage: et.UserText("Pick one")})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || len(events[0].GetLongRunningToolIds()) != 1 {
		t.Fatalf("events = %v", events)
	}
	call := events[0].GetContent().GetParts()[0].GetFunctionCall()
	if call.GetName() != "get_user_choice" || call.GetId() != events[0].GetLongRunningToolIds()[0] {
		t.Fatalf("call = %v", call)
	}
	taskID := events[0].GetCustomMetadata().GetFields()["a2a:task_id"].GetStringValue()

	answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
		Id: call.GetId(), Name: call.GetName(), Response: et.Struct(`{"result":"b"}`)}}}}
	events, err = caller.run(ctx, &api.RunRequest{AppName: "front", UserId: userID, SessionId: sid, NewMessage: answer})
	if err != nil {
		t.Fatal(err)
	}
	last := events[len(events)-1]
	if last.GetAuthor() != "helper" || last.GetContent().GetParts()[0].GetText() != "You chose b." {
		t.Fatalf("events = %v", et.Events(events))
	}
	if got := last.GetCustomMetadata().GetFields()["a2a:task_id"].GetStringValue(); got != taskID {
		t.Fatalf("task %q, want the waiting task %q", got, taskID)
	}
}
