package server_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// coderApp's agent runs the code it writes in the client.
var coderApp = fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(`name: coder
model: m
code_executor:
  name: ClientCodeExecutor
  args: {stateful: true, error_retry_attempts: 1}
`)}}

func coderStart(sid, text string, runsCode bool) *api.ConnectRequest {
	msg := startMsg(sid, text)
	msg.GetStart().CodeExecutor = runsCode
	return msg
}

func codeResultMsg(r *api.CodeResult) *api.ConnectRequest {
	return &api.ConnectRequest{Kind: &api.ConnectRequest_CodeResult{CodeResult: r}}
}

func isCodeCall(m *api.ConnectResponse) bool { return m.GetCodeExecution() != nil }

// TestConnectCodeExecution: the model's code block goes to the client as a
// code_execution call after the event of the answer cut after the block; a
// result for an unknown call id is ignored; the client's output file is
// saved as an artifact; the model sees the result and answers.
func TestConnectCodeExecution(t *testing.T) {
	t.Parallel()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, withApp(coderApp), withConfig(func(c *server.Config) {
		c.Artifacts, c.Apps[0].Runner.Artifacts = store, store
	}))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	fx.model.Enqueue(et.Text("Plot:\n```python\nplot()\n```\nignored"), et.Text("Plotted."))
	stream := fx.connect(t, ctx, coderStart(sid, "Plot it.", true))
	head := recvUntil(t, stream, isCodeCall)
	call := head[len(head)-1].GetCodeExecution()
	if call.Code != "plot()" || call.Language != "python" || call.ExecutionId != sid || call.AgentName != "coder" ||
		!strings.HasPrefix(call.CallId, "code-") {
		t.Fatalf("call = %v", call)
	}
	if err := stream.Send(codeResultMsg(&api.CodeResult{CallId: "no-such-call", Stdout: "x"})); err != nil {
		t.Fatal(err)
	}
	res := &api.CodeResult{CallId: call.CallId, Stdout: "ok\n",
		OutputFiles: []*api.File{{Name: "plot.png", MimeType: "image/png", Content: []byte("PNG")}, {Name: "notes", Content: []byte("n")}}}
	if err := stream.Send(codeResultMsg(res)); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(stream); err != nil {
		t.Fatal(err)
	}
	events := s.session(t, ctx, sid).Events
	if len(events) != 4 {
		t.Fatalf("stored %d events, want user, code, result, answer", len(events))
	}
	if got := events[1].GetContent().GetParts(); len(got) != 2 || got[0].Text != "Plot:\n" || got[1].GetExecutableCode().GetCode() != "plot()" {
		t.Errorf("code event parts = %v", got)
	}
	result := events[2].GetContent().GetParts()[0].GetCodeExecutionResult()
	if result.GetOutput() != "Code execution result:\nok\n\n\n\nSaved artifacts:\n`plot.png`,`notes`" {
		t.Errorf("result = %q", result.GetOutput())
	}
	if d := events[2].GetActions().GetArtifactDelta(); !cmp.Equal(d, map[string]int64{"plot.png": 0, "notes": 0}) {
		t.Errorf("artifact_delta = %v", d)
	}
	// A file without a MIME type is ADK's default, text/plain.
	notes, err := store.Load(ctx, artifacts.Key{AppName: appName, UserID: userID, SessionID: sid, Filename: "notes"}, artifacts.Latest)
	if err != nil || notes.GetInlineData().GetMimeType() != "text/plain" {
		t.Errorf("notes = %v, %v; want text/plain", notes, err)
	}
	reqs := fx.model.Requests()
	if got := et.Contents(reqs[1].Contents); !cmp.Equal(got, []string{"user: Plot it.", "model: Plot:\n",
		"model: ```tool_code\nplot()\n```", "user: ```tool_output\nCode execution result:\nok\n\n\n\nSaved artifacts:\n`plot.png`,`notes`\n```"}) {
		t.Errorf("second request = %q", got)
	}
}

// TestCodeExecutorMustBeDeclared: an app with a ClientCodeExecutor fails
// with FAILED_PRECONDITION, storing nothing, on Run and on a Connect whose
// client did not set code_executor.
func TestCodeExecutorMustBeDeclared(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(coderApp))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	_, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "hi"}}}})
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "ClientCodeExecutor") {
		t.Errorf("Run: err = %v, want FAILED_PRECONDITION", err)
	}
	_, err = recvAll(fx.connect(t, ctx, coderStart(sid, "hi", false)))
	if status.Code(err) != codes.FailedPrecondition || !strings.Contains(err.Error(), "start.code_executor") {
		t.Errorf("Connect: err = %v, want FAILED_PRECONDITION", err)
	}
	if n := len(s.session(t, ctx, sid).Events); n != 0 {
		t.Errorf("stored %d events, want none", n)
	}
}

// TestCodeResultOutOfBounds: a result whose file name holds a path fails
// the invocation with INVALID_ARGUMENT; the result is not stored.
func TestCodeResultOutOfBounds(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(coderApp))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	fx.model.Enqueue(et.Text("```python\nx()\n```"))
	stream := fx.connect(t, ctx, coderStart(sid, "go", true))
	head := recvUntil(t, stream, isCodeCall)
	call := head[len(head)-1].GetCodeExecution()
	bad := &api.CodeResult{CallId: call.CallId, OutputFiles: []*api.File{{Name: "../etc/passwd", MimeType: "text/plain"}}}
	if err := stream.Send(codeResultMsg(bad)); err != nil {
		t.Fatal(err)
	}
	_, err := recvAll(stream)
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "output_files[0].name") {
		t.Errorf("err = %v, want INVALID_ARGUMENT naming the file", err)
	}
	for _, ev := range s.session(t, ctx, sid).Events {
		for _, p := range ev.GetContent().GetParts() {
			if p.CodeExecutionResult != nil {
				t.Errorf("a result was stored: %v", p)
			}
		}
	}
}
