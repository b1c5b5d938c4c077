package integration

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

const coderAgent = `name: coder
model: gemini-2.5-flash
instruction: Write Python code to compute the answer.
code_executor:
  name: ClientCodeExecutor
  args: {error_retry_attempts: 2}
`

const builtInCoderAgent = `name: calc
model: gemini-2.5-flash
code_executor: {name: BuiltInCodeExecutor}
`

// wireContents renders the contents of a recorded request as
// "role: part" lines, parts as Gemini's wire names them.
func wireContents(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	contents, _ := body["contents"].([]any)
	for _, c := range contents {
		cm, _ := c.(map[string]any)
		parts, _ := cm["parts"].([]any)
		for _, p := range parts {
			b, _ := json.Marshal(p)
			out = append(out, cm["role"].(string)+": "+string(b))
		}
	}
	return out
}

func (s *stack) session(t *testing.T, ctx context.Context, app string) string {
	t.Helper()
	resp, err := api.NewSessionServiceClient(s.conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: app, UserId: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Session.Id
}

// TestClientCodeExecutionJourney: over gRPC with the real Gemini SDK, the
// model's failing code runs in the client, the error goes back to the model
// as ADK's tool_output text, the fixed code runs, and the model answers;
// every request carries the code and results as text, never as code parts.
func TestClientCodeExecutionJourney(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"coder": coderAgent})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.session(t, ctx, "coder")
	s.script(t, fakegemini.Text("```python\nprint(x)\n```"), fakegemini.Text("Fixed.\n```python\nprint(2+2)\n```"),
		fakegemini.Text("It is 4."))

	stream, err := api.NewRunnerServiceClient(s.conn).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{CodeExecutor: true,
		Run: &api.RunRequest{AppName: "coder", UserId: "u1", SessionId: sid,
			NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "2+2?"}}}}}}}); err != nil {
		t.Fatal(err)
	}
	results := []*api.CodeResult{{Stderr: "NameError: name 'x' is not defined"}, {Stdout: "4\n"}}
	var got []string
	for {
		m, err := stream.Recv()
		if err != nil {
			t.Fatalf("recv: %v", err)
		}
		if m.GetDone() != nil {
			break
		}
		if c := m.GetCodeExecution(); c != nil {
			got = append(got, "code "+c.Code)
			r := results[0]
			results, r.CallId = results[1:], c.CallId
			if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_CodeResult{CodeResult: r}}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for _, p := range m.GetEvent().GetContent().GetParts() {
			switch {
			case p.ExecutableCode != nil:
				got = append(got, "event executable_code "+p.ExecutableCode.Code)
			case p.CodeExecutionResult != nil:
				got = append(got, "event "+p.CodeExecutionResult.Outcome+" "+p.CodeExecutionResult.Output)
			default:
				got = append(got, "event "+p.Text)
			}
		}
	}
	equalLines(t, "messages", got, []string{
		"event executable_code print(x)",
		"code print(x)",
		"event OUTCOME_FAILED NameError: name 'x' is not defined",
		"event Fixed.\n",
		"event executable_code print(2+2)",
		"code print(2+2)",
		"event OUTCOME_OK Code execution result:\n4\n\n",
		"event It is 4.",
	})
	reqs := s.modelRequests(t)
	if len(reqs) != 3 {
		t.Fatalf("model requests = %d, want 3", len(reqs))
	}
	equalLines(t, "third request", wireContents(t, reqs[2].Body), []string{
		`user: {"text":"2+2?"}`,
		"model: {\"text\":\"```tool_code\\nprint(x)\\n```\"}",
		"user: {\"text\":\"```tool_output\\nNameError: name 'x' is not defined\\n```\"}",
		`model: {"text":"Fixed.\n"}`,
		"model: {\"text\":\"```tool_code\\nprint(2+2)\\n```\"}",
		"user: {\"text\":\"```tool_output\\nCode execution result:\\n4\\n\\n\\n```\"}",
	})
}

// TestBuiltInCodeExecutionJourney: Gemini's code execution tool is sent,
// the code and result parts Gemini answers with are stored as they come,
// after ADK's empty event, and go back to the model on the next turn.
func TestBuiltInCodeExecutionJourney(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"calc": builtInCoderAgent})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.session(t, ctx, "calc")
	answer := json.RawMessage(`{"candidates":[{"content":{"role":"model","parts":[{"text":"Computing."},` +
		`{"executableCode":{"language":"PYTHON","code":"print(2+2)"}},` +
		`{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"4\n"}},{"text":"It is 4."}]},"finishReason":"STOP","index":0}]}`)
	s.script(t, answer, fakegemini.Text("Still 4."))
	runner := api.NewRunnerServiceClient(s.conn)
	for _, text := range []string{"2+2?", "Again?"} {
		stream, err := runner.Run(ctx, &api.RunRequest{AppName: "calc", UserId: "u1", SessionId: sid,
			NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}})
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := stream.Recv(); err != nil {
				if !strings.Contains(err.Error(), "EOF") {
					t.Fatal(err)
				}
				break
			}
		}
	}
	sess, err := api.NewSessionServiceClient(s.conn).GetSession(ctx, &api.GetSessionRequest{AppName: "calc", UserId: "u1", SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	events := sess.Session.Events
	if len(events) != 6 || events[1].Content != nil || len(events[2].GetContent().GetParts()) != 4 {
		t.Fatalf("events = %v, want user, empty, answer, user, empty, answer", events)
	}
	reqs := s.modelRequests(t)
	for i, r := range reqs {
		tools, _ := json.Marshal(r.Body["tools"])
		if string(tools) != `[{"codeExecution":{}}]` {
			t.Errorf("request %d tools = %s, want Gemini's code execution", i, tools)
		}
	}
	equalLines(t, "second request", wireContents(t, reqs[1].Body), []string{
		`user: {"text":"2+2?"}`,
		`model: {"text":"Computing."}`,
		`model: {"executableCode":{"code":"print(2+2)","language":"PYTHON"}}`,
		`model: {"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"4\n"}}`,
		`model: {"text":"It is 4."}`,
		`user: {"text":"Again?"}`,
	})
}
