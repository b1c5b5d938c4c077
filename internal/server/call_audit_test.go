package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/auth"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// auditLine renders the fields of an audit line that a test can predict.
func auditLine(m map[string]any) string {
	s := fmt.Sprintf("%v %v %v caller=%v auth=%v admin=%v app=%v user=%v session=%v",
		m["op"], m["code"], m["transport"], m["caller"], m["auth"], m["admin"], m["app"], m["user"], m["session"])
	if keys, ok := m["state_keys"]; ok {
		s += fmt.Sprintf(" keys=%v", keys)
	}
	return s
}

// checkAuditLines compares the audit's lines with want, and checks what
// every line carries besides: a request id, a duration, and neither the
// prompts nor the state values of the calls.
func (o *observed) checkAuditLines(t *testing.T, want []string, secrets ...string) {
	t.Helper()
	var got []string
	for _, m := range o.audit.lines(t) {
		if m["msg"] != "audit" || m["request_id"] == "" || m["duration_ms"] == nil {
			t.Errorf("audit line without its message, request id or duration: %v", m)
		}
		got = append(got, auditLine(m))
	}
	if !slices.Equal(got, want) {
		t.Errorf("audit lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, secret := range secrets {
		if strings.Contains(o.audit.String(), secret) {
			t.Errorf("the audit log holds %q:\n%s", secret, o.audit)
		}
	}
}

// TestAuditOverGRPC: every state-changing RPC writes one audit line with
// the verified caller (or anonymous), the session, the code and the state
// keys it writes; refused calls too, by the handler or by an interceptor
// after the audit's; reads write none.
func TestAuditOverGRPC(t *testing.T) {
	t.Parallel()
	o := newObserved(t)
	ctx := metadata.AppendToOutgoingContext(testContext(t), "x-test-user", "alice")
	state, _ := structpb.NewStruct(map[string]any{"city": "Paris-secret"})
	created, err := o.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID, SessionId: "s1", State: state})
	if err != nil {
		t.Fatal(err)
	}
	sid := created.Session.Id
	o.model.Enqueue(et.Text("hello"))
	if _, err := o.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid, RequestId: "idem-1",
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "prompt-secret"}}}}); err != nil {
		t.Fatal(err)
	}
	sess, err := o.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	o.model.Enqueue(et.Text("again"))
	stream := o.connect(t, ctx, startMsg(sid, "connect-secret"))
	if _, err := recvAll(stream); err != nil {
		t.Fatal(err)
	}
	delta, _ := structpb.NewStruct(map[string]any{"mood": "happy-secret", "temp:x": 1})
	if _, err := o.sessions.UpdateSessionState(ctx, &api.UpdateSessionStateRequest{AppName: appName, UserId: userID, SessionId: sid, StateDelta: delta}); err != nil {
		t.Fatal(err)
	}
	rootCtx := metadata.AppendToOutgoingContext(testContext(t), "x-test-user", "root")
	if _, err := o.sessions.RewindSession(rootCtx, &api.RewindSessionRequest{AppName: appName, UserId: userID, SessionId: sid,
		RewindBeforeInvocationId: sess.Session.Events[0].InvocationId}); err != nil {
		t.Fatal(err)
	}
	if _, err := o.sessions.DeleteSession(ctx, &api.DeleteSessionRequest{AppName: appName, UserId: userID, SessionId: sid}); err != nil {
		t.Fatal(err)
	}
	// Refused: by the handler, anonymously; by the identity interceptor.
	anon := testContext(t)
	if _, err := o.sessions.CreateSession(anon, &api.CreateSessionRequest{AppName: appName, UserId: "bad\x00id"}); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("CreateSession with a NUL in user_id: %v", err)
	}
	if _, err := o.run(anon, &api.RunRequest{AppName: appName, UserId: userID, SessionId: "gone",
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "hi"}}}}); status.Code(err) != codes.NotFound {
		t.Fatalf("Run in a missing session: %v", err)
	}
	denied := metadata.AppendToOutgoingContext(anon, "x-test-deny", "1")
	if _, err := o.sessions.DeleteSession(denied, &api.DeleteSessionRequest{AppName: appName, UserId: userID, SessionId: "s9"}); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("DeleteSession refused by the identity interceptor: %v", err)
	}
	o.waitIdle(t)

	const svc = "/agentsvc.v1.SessionService/"
	o.checkAuditLines(t, []string{
		svc + "CreateSession OK grpc caller=alice auth=jwt admin=false app=desk user=u1 session=s1 keys=[city]",
		"/agentsvc.v1.RunnerService/Run OK grpc caller=alice auth=jwt admin=false app=desk user=u1 session=s1",
		"/agentsvc.v1.RunnerService/Connect OK grpc caller=alice auth=jwt admin=false app=desk user=u1 session=s1",
		svc + "UpdateSessionState OK grpc caller=alice auth=jwt admin=false app=desk user=u1 session=s1 keys=[mood temp:x]",
		svc + "RewindSession OK grpc caller=root auth=jwt admin=true app=desk user=u1 session=s1",
		svc + "DeleteSession OK grpc caller=alice auth=jwt admin=false app=desk user=u1 session=s1",
		svc + "CreateSession InvalidArgument grpc caller=anonymous auth=none admin=false app=desk user=bad\x00id session=",
		"/agentsvc.v1.RunnerService/Run NotFound grpc caller=anonymous auth=none admin=false app=desk user=u1 session=gone",
		svc + "DeleteSession Unauthenticated grpc caller=anonymous auth=none admin=false app=desk user=u1 session=s9",
	}, "Paris-secret", "prompt-secret", "connect-secret", "happy-secret")
	for _, m := range o.audit.lines(t) {
		if m["op"] == "/agentsvc.v1.RunnerService/Run" && m["code"] == "OK" && m["run_request_id"] != "idem-1" {
			t.Errorf("Run's audit line: run_request_id %v, want idem-1", m["run_request_id"])
		}
	}
}

// TestAuditOverREST: every state-changing REST route writes one audit line
// with the route's template, the caller and the code; a call refused by the
// guard in front of the routes too; reads write none.
func TestAuditOverREST(t *testing.T) {
	t.Parallel()
	o := newObserved(t)
	// The authentication middleware stands in front of the handler.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u := r.Header.Get("X-Test-User"); u != "" {
			r = r.WithContext(auth.WithIdentity(r.Context(), &auth.Identity{Subject: u, Method: "cert"}))
		}
		o.http.ServeHTTP(w, r)
	})
	do := func(method, path, body, ctype string) int {
		t.Helper()
		req := httptest.NewRequestWithContext(t.Context(), method, "http://127.0.0.1"+path, strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("X-Test-User", "svc-a")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		_, _ = io.Copy(io.Discard, w.Body)
		return w.Code
	}
	const js = "application/json"
	steps := []struct {
		method, path, body, ctype string
		want                      int
	}{
		{"POST", "/apps/desk/users/u1/sessions", `{"sessionId":"r1","state":{"city":"Paris-secret"}}`, js, 200},
		{"GET", "/apps/desk/users/u1/sessions/r1", "", "", 200},
		{"POST", "/run", runBody("r1", "prompt-secret"), js, 200},
		{"POST", "/run_sse", runBody("r1", "sse-secret"), js, 200},
		{"PATCH", "/apps/desk/users/u1/sessions/r1", `{"stateDelta":{"mood":"happy-secret"}}`, js, 200},
		{"DELETE", "/apps/desk/users/u1/sessions/r1", "", "", 200},
		{"POST", "/run", "appName=desk", "text/plain", 415},
		{"POST", "/apps/desk/users/u1/sessions/r1/rewind", `{"rewindBeforeInvocationId":"e-1"}`, js, 404},
		{"PATCH", "/apps/desk/users/u1/sessions/r9", `{"stateDelta":{}}`, js, 404},
	}
	o.model.Enqueue(et.Text("one"), et.Text("two"))
	for _, s := range steps {
		if got := do(s.method, s.path, s.body, s.ctype); got != s.want {
			t.Fatalf("%s %s: %d, want %d", s.method, s.path, got, s.want)
		}
	}
	o.waitIdle(t)
	const p = " rest caller=svc-a auth=cert admin=false "
	const sessions = "/apps/{app_name}/users/{user_id}/sessions"
	o.checkAuditLines(t, []string{
		"POST " + sessions + " OK" + p + "app=desk user=u1 session=r1 keys=[city]",
		"POST /run OK" + p + "app=desk user=u1 session=r1",
		"POST /run_sse OK" + p + "app=desk user=u1 session=r1",
		"PATCH " + sessions + "/{session_id} OK" + p + "app=desk user=u1 session=r1 keys=[mood]",
		"DELETE " + sessions + "/{session_id} OK" + p + "app=desk user=u1 session=r1",
		"POST /run InvalidArgument" + p + "app= user= session=",
		"POST " + sessions + "/{session_id}/rewind NotFound" + p + "app=desk user=u1 session=r1",
		"PATCH " + sessions + "/{session_id} NotFound" + p + "app=desk user=u1 session=r9",
	}, "Paris-secret", "prompt-secret", "sse-secret", "happy-secret")
}
