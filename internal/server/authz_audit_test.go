package server_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// TestAuditWithAuthentication: the audit line of a call names the caller
// that authentication verified, and calls refused by authentication (401)
// or authorisation (403) are audited with their codes, over gRPC and REST.
func TestAuditWithAuthentication(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	a := newJWTAuthenticator(t, key)
	o := &observed{logs: &logLines{}, audit: &logLines{}}
	o.fixture = newFixture(t, withoutGRPC(), withConfig(func(c *server.Config) {
		c.Authenticator = a
		c.AuditLogger = slog.New(slog.NewJSONHandler(o.audit, nil))
	}))
	conn := serveAllGRPC(t, o.srv, append(o.srv.RequestOptions(), server.AuthOptions(a, nil)...))
	client := api.NewSessionServiceClient(conn)
	ts := httptest.NewServer(o.handler(t))
	t.Cleanup(ts.Close)
	rs := &restStack{fixture: o.fixture, http: ts}
	rs.session(t, "s1")

	del := &api.DeleteSessionRequest{AppName: appName, UserId: userID, SessionId: "s1"}
	if _, err := client.DeleteSession(withToken(t.Context(), key.Token(t, "u2", nil)), del); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("another user's token: %v", err)
	}
	if _, err := client.DeleteSession(t.Context(), del); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("no token: %v", err)
	}
	if rep := rs.do(t, request{method: "DELETE", path: "/apps/desk/users/u1/sessions/s1",
		header: map[string]string{"Authorization": "Bearer " + key.Token(t, "u2", nil)}}); rep.status != http.StatusForbidden {
		t.Fatalf("REST with another user's token: %d %s", rep.status, rep.body)
	}
	if rep := rs.do(t, request{method: "DELETE", path: "/apps/desk/users/u1/sessions/s1"}); rep.status != http.StatusUnauthorized {
		t.Fatalf("REST without a token: %d %s", rep.status, rep.body)
	}
	if _, err := client.DeleteSession(withToken(t.Context(), key.Token(t, userID, nil)), del); err != nil {
		t.Fatalf("own token: %v", err)
	}
	const op = "/agentsvc.v1.SessionService/DeleteSession"
	const route = "DELETE /apps/{app_name}/users/{user_id}/sessions/{session_id}"
	o.checkAuditLines(t, []string{
		op + " PermissionDenied grpc caller=u2 auth=jwt admin=false app=desk user=u1 session=s1",
		op + " Unauthenticated grpc caller=anonymous auth=none admin=false app=desk user=u1 session=s1",
		route + " PermissionDenied rest caller=u2 auth=jwt admin=false app=desk user=u1 session=s1",
		route + " Unauthenticated rest caller=anonymous auth=none admin=false app=desk user=u1 session=s1",
		op + " OK grpc caller=u1 auth=jwt admin=false app=desk user=u1 session=s1",
	})
}
