package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/structpb"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// TestUserInvocationLimit caps a user at one running invocation: while a
// Connect of u1 waits on a client tool, another invocation of u1 on any
// entry point is RESOURCE_EXHAUSTED and stores nothing, u2 still runs, and
// u1 runs again once the first invocation ended.
func TestUserInvocationLimit(t *testing.T) {
	t.Parallel()
	r := newReplica(t, memory.New(), server.Config{MaxConcurrentInvocationsPerUser: 1})
	ctx := testContext(t)
	create := func(user string) string {
		t.Helper()
		created, err := r.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: user})
		if err != nil {
			t.Fatal(err)
		}
		return created.Session.Id
	}
	busy, other, u2sid := create(userID), create(userID), create("u2")

	r.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
	stream := r.connect(t, ctx, startMsg(busy, "weather?", weatherTool))
	msgs := recvUntil(t, stream, isToolCall)
	callID := msgs[len(msgs)-1].GetToolCall().GetCallId()

	const reason, msg = "USER_INVOCATION_LIMIT", "too many invocations running for this user"
	_, err := r.run(ctx, other, "second")
	checkStatus(t, err, codes.ResourceExhausted, reason, msg)
	second := r.connect(t, ctx, startMsg(other, "second"))
	_, err = recvAll(second)
	checkStatus(t, err, codes.ResourceExhausted, reason, msg)
	body := `{"appName":"desk","userId":"u1","sessionId":"` + other + `","newMessage":{"parts":[{"text":"hi"}]}}`
	for _, path := range []string{"/run", "/run_sse"} {
		req := httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		r.http.ServeHTTP(w, req)
		if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), reason) {
			t.Errorf("POST %s over the cap: %d %s, want 429 %s", path, w.Code, w.Body, reason)
		}
	}
	got, err := r.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: other})
	if err != nil || len(got.Session.Events) != 0 {
		t.Errorf("GetSession after refused runs: %v, %d events; want none", err, len(got.GetSession().GetEvents()))
	}

	r.model.Enqueue(et.Text("Hello u2."))
	if _, err := r.fixture.run(ctx, &api.RunRequest{AppName: appName, UserId: "u2", SessionId: u2sid,
		NewMessage: startMsg("", "hi").GetStart().GetRun().GetNewMessage()}); err != nil {
		t.Fatalf("run of another user: %v", err)
	}

	r.model.Enqueue(et.Text("Sunny."))
	if err := stream.Send(resultMsg(callID, structpb.NewStringValue("sunny"))); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(stream); err != nil {
		t.Fatalf("first invocation: %v", err)
	}
	r.model.Enqueue(et.Text("Again."))
	if _, err := r.run(ctx, other, "again"); err != nil {
		t.Fatalf("run after the first invocation ended: %v", err)
	}
}
