package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// agentToolApp is google-adk's probe app: root calls summarizer through an
// AgentTool.
var agentToolApp = fstest.MapFS{
	appName + "/root_agent.yaml": {Data: []byte(`name: root
model: m
instruction: Use the helper.
tools:
  - name: AgentTool
    args:
      agent: {config_path: summarizer.yaml}
`)},
	appName + "/summarizer.yaml": {Data: []byte(`name: summarizer
model: m
description: Summarizes a text.
instruction: Summarize.
output_key: summary
`)},
}

// TestAgentToolOverGRPCAndREST: an AgentTool runs its agent on a session of
// its own: the three model requests equal google-adk 1.39.1's for the same
// app (probed with a recording model; the adk_agent_name label is the one
// ADK's Gemini adapter adds), the result and the agent's state
// changes come back to the caller, and nothing of the inner run is stored.
func TestAgentToolOverGRPCAndREST(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(agentToolApp))
	httpURL := fx.serveHTTP(t).URL
	decl := &v1.Tool{FunctionDeclarations: []*v1.FunctionDeclaration{{Name: "summarizer", Description: "Summarizes a text.",
		Parameters: et.Struct(`{"type":"object","properties":{"request":{"type":"string"}},"required":["request"]}`)}}}
	user := func(text string) *v1.Content { return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}} }
	want := []*v1.LlmRequest{{
		Model: "m", Contents: []*v1.Content{user("Summarize this.")},
		Config: &v1.GenerateContentConfig{SystemInstruction: "Use the helper.\n\nYou are an agent. Your internal name is \"root\".",
			Tools: []*v1.Tool{decl}, Labels: map[string]string{"adk_agent_name": "root"}},
	}, {
		Model: "m", Contents: []*v1.Content{user("A long text.")},
		Config: &v1.GenerateContentConfig{SystemInstruction: "Summarize.\n\nYou are an agent. Your internal name is \"summarizer\". " +
			"The description about you is \"Summarizes a text.\".", Labels: map[string]string{"adk_agent_name": "summarizer"}},
	}, {
		Model: "m", Contents: []*v1.Content{user("Summarize this."),
			{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Name: "summarizer", Args: et.Struct(`{"request":"A long text."}`)}}}},
			{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Name: "summarizer", Response: et.Struct(`{"result":"Short."}`)}}}}},
		Config: &v1.GenerateContentConfig{SystemInstruction: "Use the helper.\n\nYou are an agent. Your internal name is \"root\".",
			Tools: []*v1.Tool{decl}, Labels: map[string]string{"adk_agent_name": "root"}},
	}}
	for i, transport := range []string{"grpc", "rest"} {
		ctx := testContext(t)
		resp, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID, State: et.Struct(`{"topic":"x"}`)})
		if err != nil {
			t.Fatal(err)
		}
		sid := resp.Session.Id
		fx.model.Enqueue(et.Call("summarizer", `{"request":"A long text."}`), et.Text("Short."), et.Text("The summary is: Short."))
		if transport == "grpc" {
			if _, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid, NewMessage: user("Summarize this.")}); err != nil {
				t.Fatal(err)
			}
		} else {
			code, body := postJSON(t, httpURL+"/run", `{"appName":"`+appName+`","userId":"`+userID+`","sessionId":"`+sid+
				`","newMessage":{"role":"user","parts":[{"text":"Summarize this."}]}}`)
			if code != 200 || !strings.Contains(body, "The summary is: Short.") {
				t.Fatalf("/run: %d %s", code, body)
			}
		}
		got := fx.model.Requests()[3*i:]
		for _, r := range got {
			r.Contents = clearCallIDs(r.Contents)
		}
		if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
			t.Errorf("%s: model requests (-want +got):\n%s", transport, diff)
		}
		sess, err := fx.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid})
		if err != nil {
			t.Fatal(err)
		}
		wantEvents := []string{"user: Summarize this.", `root: call summarizer{"request":"A long text."}`,
			`root: response summarizer{"result":"Short."}`, "root: The summary is: Short."}
		if diff := cmp.Diff(wantEvents, et.Events(sess.Session.Events)); diff != "" {
			t.Errorf("%s: stored events (-want +got):\n%s", transport, diff)
		}
		if diff := cmp.Diff(map[string]any{"topic": "x", "summary": "Short."}, sess.Session.State.AsMap()); diff != "" {
			t.Errorf("%s: state (-want +got):\n%s", transport, diff)
		}
	}
	list, err := fx.sessions.ListSessions(testContext(t), &api.ListSessionsRequest{AppName: appName, UserId: userID})
	if err != nil || len(list.Sessions) != 2 {
		t.Errorf("sessions = %v, %v; want the two runs' only", list, err)
	}
}

// clearCallIDs drops the function call and response ids, which the engine
// makes up.
func clearCallIDs(cs []*v1.Content) []*v1.Content {
	for _, c := range cs {
		for _, p := range c.Parts {
			if p.FunctionCall != nil {
				p.FunctionCall.Id = ""
			}
			if p.FunctionResponse != nil {
				p.FunctionResponse.Id = ""
			}
		}
	}
	return cs
}

// postJSON posts body to url and returns the status and the answer.
func postJSON(t *testing.T, url, body string) (int, string) {
	t.Helper()
	return doJSON(t, http.MethodPost, url, body)
}

// doJSON sends a request with a JSON body (none when empty) and returns
// the status and the answer.
func doJSON(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestAgentToolSchemasAndSkip: an agent with an input schema is declared
// with it and gets the arguments as JSON; one with an output schema
// answers the object; skip_summarization ends the caller's turn with the
// result.
func TestAgentToolSchemasAndSkip(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(fstest.MapFS{
		appName + "/root_agent.yaml": {Data: []byte(`name: root
model: m
tools:
  - name: AgentTool
    args:
      agent: {config_path: scorer.yaml}
      skip_summarization: true
`)},
		appName + "/scorer.yaml": {Data: []byte(`name: scorer
model: m
description: Scores a text.
input_schema:
  type: object
  properties: {text: {type: string}, strict: {type: boolean}}
  required: [text]
output_schema:
  type: object
  properties: {score: {type: integer}}
`)},
	}))
	ctx := testContext(t)
	resp, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	fx.model.Enqueue(et.Call("scorer", `{"text":"Hello","strict":true}`), et.Text(`{"score": 7}`))
	events, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: resp.Session.Id,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Score it."}}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`root: call scorer{"strict":true,"text":"Hello"}`, `root: response scorer{"score":7}`}
	if diff := cmp.Diff(want, et.Events(events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	reqs := fx.model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model calls, want 2 (the result is not summarised)", len(reqs))
	}
	if got := reqs[0].Config.Tools[0].FunctionDeclarations[0].Parameters.AsMap()["required"]; !cmp.Equal(got, []any{"text"}) {
		t.Errorf("declared parameters = %v, want the input schema", reqs[0].Config.Tools[0].FunctionDeclarations[0].Parameters)
	}
	if got := reqs[1].Contents[0].Parts[0].Text; got != `{"text":"Hello","strict":true}` {
		t.Errorf("scorer's message = %q, want the arguments as pydantic dumps them, in the schema's order", got)
	}
}
