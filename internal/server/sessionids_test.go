package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// sessionIDCases are session ids that the artifact stores cannot keep
// artifacts under, with ADK's validate_path_segment's message (or the
// stores' own), and ids they can.
var sessionIDCases = []struct {
	id   string
	want string // the message's start; "" when the id is fine
}{
	{"..", "session_id '..' must not contain traversal segments."},
	{".", "session_id '.' must not contain traversal segments."},
	{"a/../b", "session_id 'a/../b' must not contain traversal segments."},
	{`a\..`, `session_id 'a\\..' must not contain traversal segments.`},
	{"/abs", "session_id '/abs' must not be an absolute path or start with a slash."},
	{`\abs`, `session_id '\\abs' must not be an absolute path or start with a slash.`},
	{"C:x", "session_id 'C:x' must not be drive-qualified."},
	{strings.Repeat("a%", 90), "session_id 'a%a%"},
	{"a/b", ""},
	{"a*b", ""},
	{"..a", ""},
	{"s-1", ""},
}

// TestCreateSessionRefusesIDsArtifactsCannotHold: CreateSession over gRPC
// and REST refuses, with INVALID_ARGUMENT and ADK's text, an id that no
// artifact could later be saved under, and stores nothing.
func TestCreateSessionRefusesIDsArtifactsCannotHold(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	ts := fx.serveHTTP(t)
	for _, tc := range sessionIDCases {
		_, err := fx.sessions.CreateSession(t.Context(), &api.CreateSessionRequest{AppName: appName, UserId: userID, SessionId: tc.id})
		checkCreateRefusal(t, "grpc", tc.id, tc.want, status.Code(err), status.Convert(err).Message())

		rest := &restStack{fixture: fx, http: ts}
		quoted, _ := json.Marshal(tc.id)
		body := `{"sessionId":` + string(quoted) + `}`
		r := rest.do(t, request{method: http.MethodPost, path: "/apps/" + appName + "/users/" + url.PathEscape("rest-"+userID) + "/sessions", body: body})
		code := codes.OK
		if r.status == http.StatusBadRequest {
			code = codes.InvalidArgument
		} else if r.status != http.StatusOK {
			code = codes.Unknown
		}
		checkCreateRefusal(t, "rest", tc.id, tc.want, code, r.err.Message)
		for _, user := range []string{userID, "rest-" + userID} {
			_, err := fx.store.Get(t.Context(), sessions.GetRequest{AppName: appName, UserID: user, SessionID: tc.id})
			if stored := err == nil; stored != (tc.want == "") {
				t.Errorf("session %q of %s: stored %v", tc.id, user, stored)
			}
		}
	}
}

func checkCreateRefusal(t *testing.T, via, id, want string, code codes.Code, msg string) {
	t.Helper()
	if want == "" {
		if code != codes.OK {
			t.Errorf("%s: create %q: %v %s, want it created", via, id, code, msg)
		}
		return
	}
	if code != codes.InvalidArgument || !strings.HasPrefix(msg, want) {
		t.Errorf("%s: create %q: %v %q, want INVALID_ARGUMENT %q", via, id, code, msg, want)
	}
}

// TestA2ARefusesContextIDsArtifactsCannotHold: an A2A message whose
// context id names a new session that artifacts cannot be kept under is
// refused, and no session is created.
func TestA2ARefusesContextIDsArtifactsCannotHold(t *testing.T) {
	t.Parallel()
	s := newA2AStack(t)
	if _, err := s.client.SendMessage(t.Context(), userMessage("../x", "Hi")); err == nil {
		t.Fatal("message/send with context id ../x: no error")
	}
	if _, err := s.store.Get(t.Context(), sessions.GetRequest{AppName: "help", UserID: "A2A_USER_../x", SessionID: "../x"}); err == nil {
		t.Fatal("a session ../x was created")
	}
}
