package server_test

import (
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// TestRESTRejectsBadPathIDs: an app name or id in a REST path that is not
// UTF-8, holds a control character (NUL included) or is too long is 400
// INVALID_ARGUMENT naming the field, on every route, and nothing is
// stored: the valid session is unchanged and no session appears, for the
// valid user or the bad one.
func TestRESTRejectsBadPathIDs(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	s.session(t, "s1")
	before := s.snapshot(t, userID)
	bad := []struct{ escaped, raw string }{
		{"%ff", "\xff"},
		{"%00", "\x00"},
		{"u1%00x", "u1\x00x"},
		{"%c3%28", "\xc3\x28"},
		{"a%1bb", "a\x1bb"},
		{"a%7f", "a\x7f"},
		{"a%c2%85", "a\u0085"},
		{strings.Repeat("x", 300), strings.Repeat("x", 300)},
	}
	for _, b := range bad {
		for _, field := range []string{"app_name", "user_id", "session_id"} {
			app, user, sid := "desk", "u1", "s1"
			switch field {
			case "app_name":
				app = b.escaped
			case "user_id":
				user = b.escaped
			default:
				sid = b.escaped
			}
			base := "/apps/" + app + "/users/" + user + "/sessions"
			reqs := []request{
				{method: "GET", path: base + "/" + sid},
				{method: "PATCH", path: base + "/" + sid, body: `{"stateDelta": {"city": "Rome"}}`},
				{method: "DELETE", path: base + "/" + sid},
				{method: "POST", path: base + "/" + sid + "/rewind", body: `{"rewindBeforeInvocationId": "e-1"}`},
			}
			if field != "session_id" {
				reqs = append(reqs, request{method: "POST", path: base, body: `{"sessionId": "new"}`},
					request{method: "POST", path: base, body: `{}`},
					request{method: "GET", path: base})
			}
			for _, r := range reqs {
				got := s.do(t, r)
				if got.status != 400 || got.err.Code != 3 || got.err.reason() != "INVALID_ARGUMENT" || !strings.Contains(got.err.Message, field) {
					t.Errorf("%s %q: %d %+v, want 400 INVALID_ARGUMENT naming %s", r.method, r.path, got.status, got.err, field)
				}
			}
			if field == "user_id" {
				if got := s.snapshot(t, b.raw); got != "" {
					t.Errorf("user %q: stored %s", b.raw, got)
				}
			}
		}
	}
	// A session id in a create body is checked as well.
	for _, sid := range []string{"\\u0000", "a\\u001bb", "\\u0085", strings.Repeat("y", 257)} {
		got := s.do(t, request{method: "POST", path: "/apps/desk/users/u1/sessions", body: `{"sessionId": "` + sid + `"}`})
		if got.status != 400 || !strings.Contains(got.err.Message, "session_id") {
			t.Errorf("create with sessionId %q: %d %+v", sid, got.status, got.err)
		}
	}
	if after := s.snapshot(t, userID); after != before {
		t.Errorf("the store changed:\n%s\nwant\n%s", after, before)
	}
	// The valid session still answers.
	if got := s.do(t, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1"}); got.status != 200 {
		t.Errorf("GET s1: %d %s", got.status, got.body)
	}
}

// TestRESTRunRejectsBadBodyIDs: the ids of ADK's /run body are checked
// before the session is touched: nothing is stored, the model is not
// called.
func TestRESTRunRejectsBadBodyIDs(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	s.session(t, "s1")
	before := s.snapshot(t, userID)
	msg := `"newMessage": {"role": "user", "parts": [{"text": "hi"}]}`
	for _, c := range []struct{ field, body string }{
		{"user_id", `{"appName": "desk", "userId": "u1\u0000", "sessionId": "s1", ` + msg + `}`},
		{"session_id", `{"appName": "desk", "userId": "u1", "sessionId": "s1\n", ` + msg + `}`},
		{"invocation_id", `{"appName": "desk", "userId": "u1", "sessionId": "s1", "invocationId": "e-\u0007", ` + msg + `}`},
		{"request_id", `{"appName": "desk", "userId": "u1", "sessionId": "s1", "requestId": "` + strings.Repeat("r", 257) + `", ` + msg + `}`},
		{"app_name", `{"appName": "desk\u0000", "userId": "u1", "sessionId": "s1", ` + msg + `}`},
	} {
		for _, path := range []string{"/run", "/run_sse"} {
			got := s.do(t, request{method: "POST", path: path, body: c.body})
			if got.status != 400 || got.err.reason() != "INVALID_ARGUMENT" || !strings.Contains(got.err.Message, c.field) {
				t.Errorf("%s with bad %s: %d %+v", path, c.field, got.status, got.err)
			}
		}
	}
	if after := s.snapshot(t, userID); after != before {
		t.Errorf("the store changed:\n%s\nwant\n%s", after, before)
	}
	if n := len(s.model.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}

// assertInvalid checks that err is INVALID_ARGUMENT with an ErrorInfo and
// a message that names field.
func assertInvalid(t *testing.T, err error, field string) {
	t.Helper()
	st, _ := status.FromError(err)
	if st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), field) {
		t.Errorf("got %v, want INVALID_ARGUMENT naming %s", err, field)
		return
	}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.Domain == "agentsvc" {
			return
		}
	}
	t.Errorf("%v: no ErrorInfo", err)
}

// TestGRPCRejectsBadIDs: the gRPC handlers check ids as REST does; an
// error never quotes more than a short prefix of a bad value.
func TestGRPCRejectsBadIDs(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := newStack(t, 0)
	sid := s.newSession(t, ctx)
	long := strings.Repeat("z", 1<<20)
	for _, c := range []struct {
		field string
		call  func() error
	}{
		{"user_id", func() error {
			_, err := s.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: "u1\x00"})
			return err
		}},
		{"session_id", func() error {
			_, err := s.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID, SessionId: "a\tb"})
			return err
		}},
		{"user_id", func() error {
			_, err := s.sessions.ListSessions(ctx, &api.ListSessionsRequest{AppName: appName, UserId: "\u009b"})
			return err
		}},
		{"session_id", func() error {
			_, err := s.sessions.UpdateSessionState(ctx, &api.UpdateSessionStateRequest{AppName: appName, UserId: userID, SessionId: sid + "\x00"})
			return err
		}},
		{"app_name", func() error {
			_, err := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: long, UserId: userID, SessionId: sid})
			return err
		}},
		{"app_name", func() error {
			_, err := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: "x-" + long, UserId: userID, SessionId: sid})
			return err
		}},
		{"invocation_id", func() error {
			stream, err := s.runner.Run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
				NewMessage: et.UserText("hi"), InvocationId: "e\x00"})
			if err == nil {
				_, err = stream.Recv()
			}
			return err
		}},
		{"request_id", func() error {
			stream, err := s.runner.Run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
				NewMessage: et.UserText("hi"), RequestId: "r\x1b"})
			if err == nil {
				_, err = stream.Recv()
			}
			return err
		}},
		{"user_id", func() error {
			msg := startMsg(sid, "hi")
			msg.GetStart().Run.UserId = "u\x00"
			_, err := s.connect(t, ctx, msg).Recv()
			return err
		}},
	} {
		err := c.call()
		assertInvalid(t, err, c.field)
		if st, _ := status.FromError(err); len(st.Message()) > 200 {
			t.Errorf("%s: message of %d bytes", c.field, len(st.Message()))
		}
	}
	if got := s.storedEvents(t, ctx, sid); len(got) != 0 {
		t.Errorf("stored %q", got)
	}
}
