package integration

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// startFiles serves apps given as files: app name → file name → content.
func startFiles(t *testing.T, apps map[string]map[string]string) *stack {
	t.Helper()
	dir := t.TempDir()
	for app, files := range apps {
		for name, body := range files {
			p := filepath.Join(dir, app, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return startStack(t, nil, "--agents", dir)
}

var bankApp = map[string]string{"root_agent.yaml": `name: banker
model: gemini-2.5-flash
instruction: Move money when asked.
tools:
  - name: transfer_money
`}

var transferMoney = &api.ToolDeclaration{Name: "transfer_money", Description: "Sends money.", RequireConfirmation: true,
	Parameters: mustStruct(map[string]any{"type": "object", "properties": map[string]any{"amount": map[string]any{"type": "number"}}})}

// connectRun opens a Connect stream on app with msg and the declared tools.
func (s *stack) connectRun(t *testing.T, ctx context.Context, app, sid string, msg *v1.Content, tools ...*api.ToolDeclaration) connectStream {
	t.Helper()
	stream, err := api.NewRunnerServiceClient(s.conn).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{
		Run: &api.RunRequest{AppName: app, UserId: "u", SessionId: sid, NewMessage: msg}, Tools: tools}}})
	if err != nil {
		t.Fatal(err)
	}
	return stream
}

func newSession(t *testing.T, ctx context.Context, s *stack, app string) string {
	t.Helper()
	created, err := api.NewSessionServiceClient(s.conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: app, UserId: "u"})
	if err != nil {
		t.Fatal(err)
	}
	return created.Session.Id
}

func userText(text string) *v1.Content {
	return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}
}

func TestConnectToolConfirmation(t *testing.T) {
	t.Parallel()
	s := startFiles(t, map[string]map[string]string{"bank": bankApp})
	for _, tt := range []struct {
		name      string
		confirmed bool
		want      []string
	}{
		{"approved", true, []string{
			"tool_call call transfer_money{\"amount\":5}",
			`event banker: response transfer_money{"ok":true}`,
			"event banker: Done.", "done"}},
		{"rejected", false, []string{
			`event banker: response transfer_money{"error":"This tool call is rejected."}`,
			"event banker: Done.", "done"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{
				fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "transfer_money", Args: map[string]any{"amount": 5}})),
				fakegemini.Reply(fakegemini.Text("Done.")),
			}})
			sid := newSession(t, ctx, s, "bank")
			msgs, err := drain(s.connectRun(t, ctx, "bank", sid, userText("send 5"), transferMoney))
			if err != nil {
				t.Fatal(err)
			}
			equalLines(t, "first run", describe(msgs), []string{
				`event banker: call transfer_money{"amount":5}`,
				`event banker: call adk_request_confirmation{"originalFunctionCall":{"args":{"amount":5},"id":"` +
					msgs[0].GetEvent().Content.Parts[0].FunctionCall.Id + `","name":"transfer_money"},"toolConfirmation":{"confirmed":false,` +
					`"hint":"Please approve or reject the tool call transfer_money() by responding with a FunctionResponse with an expected ToolConfirmation payload."}}`,
				`event banker: response transfer_money{"error":"This tool call requires confirmation, please approve or reject."}`,
				"done",
			})
			originalID := msgs[0].GetEvent().Content.Parts[0].FunctionCall.Id
			requestID := msgs[1].GetEvent().Content.Parts[0].FunctionCall.Id

			reply := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
				Id: requestID, Name: "adk_request_confirmation",
				Response: mustStruct(map[string]any{"confirmed": tt.confirmed})}}}}
			stream := s.connectRun(t, ctx, "bank", sid, reply, transferMoney)
			var got []string
			if tt.confirmed {
				_, calls := until(t, stream, 1)
				if calls[0].CallId != originalID {
					t.Errorf("tool_call id %s, want the original call %s", calls[0].CallId, originalID)
				}
				got = append(got, "tool_call "+partLine(&v1.Part{FunctionCall: calls[0].FunctionCall}))
				answer(t, stream, calls[0].CallId, structpb.NewStructValue(mustStruct(map[string]any{"ok": true})))
			}
			rest, err := drain(stream)
			if err != nil {
				t.Fatal(err)
			}
			equalLines(t, "second run", append(got, describe(rest)...), tt.want)
		})
	}
}

func TestResumableAppPausedAndResumed(t *testing.T) {
	t.Parallel()
	s := startFiles(t, map[string]map[string]string{"review": {
		"app.yaml": "resumability_config:\n  is_resumable: true\n",
		"root_agent.yaml": `agent_class: SequentialAgent
name: review
sub_agents:
  - config_path: approver.yaml
  - config_path: publisher.yaml
`,
		"approver.yaml":  "name: approver\nmodel: gemini-2.5-flash\ntools:\n  - name: request_approval\n",
		"publisher.yaml": "name: publisher\nmodel: gemini-2.5-flash\n",
	}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{
		fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "request_approval"})),
		fakegemini.Reply(fakegemini.Text("Approved, handing over.")),
		fakegemini.Reply(fakegemini.Text("Published.")),
	}})
	sid := newSession(t, ctx, s, "review")
	approval := &api.ToolDeclaration{Name: "request_approval", LongRunning: true}
	stream := s.connectRun(t, ctx, "review", sid, userText("publish my post"), approval)
	msgs, calls := until(t, stream, 1)
	// The approval is pending: the tool answers with no result.
	if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: &api.ToolResult{CallId: calls[0].CallId}}}); err != nil {
		t.Fatal(err)
	}
	rest, err := drain(stream)
	if err != nil {
		t.Fatal(err)
	}
	msgs = append(msgs, rest...)
	var inv string
	for _, m := range msgs {
		if ev := m.GetEvent(); ev != nil {
			inv = ev.InvocationId
			if ev.Author == "publisher" {
				t.Errorf("the publisher ran before the approval: %v", ev)
			}
		}
	}

	// The approval arrives: the same invocation resumes where it paused.
	resp := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{
		Id: calls[0].CallId, Name: "request_approval", Response: mustStruct(map[string]any{"approved": true})}}}}
	run, err := api.NewRunnerServiceClient(s.conn).Run(ctx, &api.RunRequest{AppName: "review", UserId: "u", SessionId: sid,
		NewMessage: resp, InvocationId: inv})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		r, err := run.Recv()
		if err != nil {
			break
		}
		ev := r.Event
		if ev.InvocationId != inv {
			t.Errorf("event of invocation %s, want %s", ev.InvocationId, inv)
		}
		switch {
		case ev.GetActions().GetEndOfAgent():
			got = append(got, ev.Author+": end")
		case ev.GetActions().GetAgentState() != nil:
			got = append(got, ev.Author+": state "+compact(ev.Actions.AgentState))
		default:
			got = append(got, ev.Author+": "+partLine(ev.Content.Parts[0]))
		}
	}
	equalLines(t, "resumed", got, []string{
		"approver: Approved, handing over.", "approver: end",
		`review: state {"current_sub_agent":"publisher"}`, "publisher: Published.", "publisher: end", "review: end",
	})
	if n := len(s.modelRequests(t)); n != 3 {
		t.Errorf("model calls = %d, want 3 (nothing redone)", n)
	}
}
