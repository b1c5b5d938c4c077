package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"

	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// bearer adds a bearer token to every request.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestA2AAuthentication: with authentication the A2A routes need a token
// (401 without), the session belongs to the token's user, and another
// user cannot read the task.
func TestA2AAuthentication(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	fx := newFixture(t, withoutGRPC(), withApp(helpApp), withConfig(func(c *server.Config) {
		c.Authenticator = newJWTAuthenticator(t, key)
	}))
	ts := fx.serveHTTP(t, server.WithA2A(""))
	for _, r := range []struct{ method, path string }{{"GET", "/a2a/help/.well-known/agent-card.json"}, {"POST", "/a2a/help"}} {
		req, _ := http.NewRequestWithContext(t.Context(), r.method, ts.URL+r.path, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s %s without a token: %d, want 401", r.method, r.path, resp.StatusCode)
		}
	}
	client := func(user string) *a2aclient.Client {
		hc := &http.Client{Transport: bearer(key.Token(t, user, nil))}
		c, err := a2aclient.NewFromEndpoints(t.Context(), []a2a.AgentInterface{{URL: ts.URL + "/a2a/help", Transport: a2a.TransportProtocolJSONRPC}},
			a2aclient.WithJSONRPCTransport(hc))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	fx.model.Enqueue(et.Text("Hello."))
	res, err := client(userID).SendMessage(t.Context(), userMessage("ctx-a", "Hi"))
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*a2a.Task)
	if task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("task = %+v", task)
	}
	if _, err := fx.store.Get(t.Context(), sessions.GetRequest{AppName: "help", UserID: userID, SessionID: "ctx-a"}); err != nil {
		t.Fatalf("the token's user has no session ctx-a: %v", err)
	}
	if _, err := client("u2").GetTask(t.Context(), &a2a.TaskQueryParams{ID: task.ID}); err == nil {
		t.Fatal("another user read the task")
	}
	if _, err := client(userID).GetTask(t.Context(), &a2a.TaskQueryParams{ID: task.ID}); err != nil {
		t.Fatalf("the owner cannot read the task: %v", err)
	}
}
