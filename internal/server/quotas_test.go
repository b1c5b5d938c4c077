package server_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
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

// TestUserRateLimit gives u1 a burst of two requests, then refuses the next
// on every entry point with RESOURCE_EXHAUSTED, a RetryInfo and on REST 429
// with Retry-After, storing nothing; u2 is not limited by u1's requests.
func TestUserRateLimit(t *testing.T) {
	t.Parallel()
	r := newReplica(t, memory.New(), server.Config{UserRate: 0.1, UserBurst: 2})
	ctx := testContext(t)
	created, err := r.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	sid := created.Session.Id
	if _, err := r.sessions.ListSessions(ctx, &api.ListSessionsRequest{AppName: appName, UserId: userID}); err != nil {
		t.Fatal(err)
	}

	const reason, msg = "USER_RATE_LIMITED", "too many requests for this user"
	checkRetry := func(t *testing.T, err error) {
		t.Helper()
		checkStatus(t, err, codes.ResourceExhausted, reason, msg)
		for _, d := range status.Convert(err).Details() {
			if info, ok := d.(*errdetails.RetryInfo); ok {
				if delay := info.GetRetryDelay().AsDuration(); delay <= 5*time.Second || delay > 10*time.Second {
					t.Errorf("retry delay = %v, want in (5s, 10s]", delay)
				}
				return
			}
		}
		t.Errorf("status details %v lack RetryInfo", status.Convert(err).Details())
	}
	_, err = r.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid})
	checkRetry(t, err)
	_, err = r.sessions.UpdateSessionState(ctx, &api.UpdateSessionStateRequest{AppName: appName, UserId: userID,
		SessionId: sid, StateDelta: et.Struct(`{"k":"v"}`)})
	checkRetry(t, err)
	_, err = r.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID, SessionId: "more"})
	checkRetry(t, err)
	_, err = r.run(ctx, sid, "hi")
	checkRetry(t, err)
	_, err = recvAll(r.connect(t, ctx, startMsg(sid, "hi")))
	checkRetry(t, err)

	requests := []struct{ method, path, body string }{
		{"GET", "/apps/desk/users/u1/sessions/" + sid, ""},
		{"GET", "/apps/desk/users/u1/sessions", ""},
		{"DELETE", "/apps/desk/users/u1/sessions/" + sid, ""},
		{"POST", "/run", `{"appName":"desk","userId":"u1","sessionId":"` + sid + `","newMessage":{"parts":[{"text":"hi"}]}}`},
		{"POST", "/run_sse", `{"appName":"desk","userId":"u1","sessionId":"` + sid + `","newMessage":{"parts":[{"text":"hi"}]}}`},
	}
	for _, q := range requests {
		req := httptest.NewRequestWithContext(ctx, q.method, "http://127.0.0.1"+q.path, strings.NewReader(q.body))
		if q.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		w := httptest.NewRecorder()
		r.http.ServeHTTP(w, req)
		if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), reason) {
			t.Errorf("%s %s over the rate: %d %s, want 429 %s", q.method, q.path, w.Code, w.Body, reason)
		}
		if got, err := strconv.Atoi(w.Header().Get("Retry-After")); err != nil || got < 6 || got > 10 {
			t.Errorf("%s %s: Retry-After = %q, want 6 to 10 seconds", q.method, q.path, w.Header().Get("Retry-After"))
		}
	}

	// Nothing refused was stored, the model was never called.
	sess, err := r.store.Get(ctx, sessions.GetRequest{AppName: appName, UserID: userID, SessionID: sid})
	if err != nil || len(sess.Events) != 0 {
		t.Errorf("stored session after refused requests: %v, %d events; want none", err, len(sess.GetEvents()))
	}
	if list, err := r.store.List(ctx, appName, userID); err != nil || len(list) != 1 {
		t.Errorf("stored sessions: %v, %d; want the one created", err, len(list))
	}
	if r.model.Calls() != 0 {
		t.Errorf("the model was called %d times", r.model.Calls())
	}

	// Another user has a bucket of their own.
	for range 2 {
		if _, err := r.sessions.ListSessions(ctx, &api.ListSessionsRequest{AppName: appName, UserId: "u2"}); err != nil {
			t.Fatalf("another user: %v", err)
		}
	}
}

// TestUserSessionLimit caps u1 at two sessions: a third CreateSession, over
// gRPC or REST, is RESOURCE_EXHAUSTED and stores nothing; u2 still creates,
// and u1 creates again once a session is deleted.
func TestUserSessionLimit(t *testing.T) {
	t.Parallel()
	r := newReplica(t, memory.New(), server.Config{MaxSessionsPerUser: 2})
	ctx := testContext(t)
	create := func(user, sid string) error {
		_, err := r.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: user, SessionId: sid})
		return err
	}
	for _, sid := range []string{"s1", "s2"} {
		if err := create(userID, sid); err != nil {
			t.Fatal(err)
		}
	}
	const reason, msg = "USER_SESSION_LIMIT", "too many sessions for this user"
	checkStatus(t, create(userID, "s3"), codes.ResourceExhausted, reason, msg)
	req := httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1/apps/desk/users/u1/sessions", strings.NewReader(`{"sessionId":"s4"}`))
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	r.http.ServeHTTP(w, req)
	if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), reason) {
		t.Errorf("REST create over the cap: %d %s, want 429 %s", w.Code, w.Body, reason)
	}
	if list, err := r.store.List(ctx, appName, userID); err != nil || len(list) != 2 {
		t.Errorf("stored sessions of u1: %v, %d; want 2", err, len(list))
	}
	if err := create("u2", "s1"); err != nil {
		t.Errorf("another user: %v", err)
	}
	if _, err := r.sessions.DeleteSession(ctx, &api.DeleteSessionRequest{AppName: appName, UserId: userID, SessionId: "s1"}); err != nil {
		t.Fatal(err)
	}
	if err := create(userID, "s3"); err != nil {
		t.Errorf("create after a delete: %v", err)
	}
}
