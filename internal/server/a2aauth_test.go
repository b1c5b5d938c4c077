package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/models"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// a2aWithJWT serves the help app over A2A with bearer tokens of key.
func a2aWithJWT(t *testing.T) (*fixture, *httptest.Server, *authtest.Key) {
	t.Helper()
	key := authtest.NewKey(t, "k1")
	fx := newFixture(t, withoutGRPC(), withApp(helpApp), withConfig(func(c *server.Config) {
		c.Authenticator = newJWTAuthenticator(t, key)
	}))
	return fx, fx.serveHTTP(t, server.WithA2A("")), key
}

// a2aUserClient is an A2A client of the help app served at url that sends
// token.
func a2aUserClient(t *testing.T, url, token string) *a2aclient.Client {
	t.Helper()
	hc := &http.Client{Transport: bearer(token)}
	c, err := a2aclient.NewFromEndpoints(t.Context(), []a2a.AgentInterface{{URL: url + "/a2a/help", Transport: a2a.TransportProtocolJSONRPC}},
		a2aclient.WithJSONRPCTransport(hc))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// bearer adds a bearer token to every request.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// TestA2AAuthentication: with authentication the A2A RPC route needs a
// token (401 without), the session belongs to the token's user, and another
// user cannot read the task.
func TestA2AAuthentication(t *testing.T) {
	t.Parallel()
	fx, ts, key := a2aWithJWT(t)
	for _, r := range []struct{ method, path string }{{"POST", "/a2a/help"}, {"POST", "/a2a/help/.well-known/agent-card.json"},
		{"GET", "/a2a/help/x/.well-known/agent-card.json"}} {
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
	client := func(user string) *a2aclient.Client { return a2aUserClient(t, ts.URL, key.Token(t, user, nil)) }
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

// TestA2ACardWithoutToken: with bearer tokens on, an app's agent card is
// served without a token and declares the bearer scheme (A2A 0.3's
// securitySchemes and security, 1.0's securityRequirements), so that a
// client learns from it how to call.
func TestA2ACardWithoutToken(t *testing.T) {
	t.Parallel()
	_, ts, _ := a2aWithJWT(t)
	resp, err := http.Get(ts.URL + "/a2a/help/.well-known/agent-card.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var card struct {
		SecuritySchemes map[string]struct {
			Type, Scheme string
		} `json:"securitySchemes"`
		Security             []map[string][]string `json:"security"`
		SecurityRequirements []any                 `json:"securityRequirements"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&card); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("card: %d, %v", resp.StatusCode, err)
	}
	if s := card.SecuritySchemes["bearer"]; s.Type != "http" || s.Scheme != "bearer" || len(card.Security) != 1 ||
		card.Security[0]["bearer"] == nil || len(card.SecurityRequirements) != 1 {
		t.Fatalf("card security %+v", card)
	}
}

// gatedModel answers "Done." once gate closes, telling started when a call
// begins: a task stays running meanwhile.
type gatedModel struct{ started, gate chan struct{} }

func (gatedModel) Name() string { return modelName }

func (m gatedModel) GenerateContent(ctx context.Context, _ *v1.LlmRequest, _ bool) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		m.started <- struct{}{}
		select {
		case <-m.gate:
		case <-ctx.Done():
			yield(nil, ctx.Err())
			return
		}
		yield(et.Text("Done."), nil)
	}
}

func (m gatedModel) Model(context.Context, string) (models.Model, error) { return m, nil }

// TestA2ATaskOfAnotherUser: every A2A method naming a task id — tasks/get,
// tasks/resubscribe, tasks/cancel, a message continuing the task, sent or
// streamed — answers another user as if alice's task, running or done, did
// not exist, and leaves it running; a message in alice's context id runs in
// bob's own session.
func TestA2ATaskOfAnotherUser(t *testing.T) {
	t.Parallel()
	key := authtest.NewKey(t, "k1")
	model := gatedModel{started: make(chan struct{}, 4), gate: make(chan struct{})}
	fx := newFixture(t, withoutGRPC(), withApp(helpApp), withModels(model), withConfig(func(c *server.Config) {
		c.Authenticator = newJWTAuthenticator(t, key)
	}))
	ts := fx.serveHTTP(t, server.WithA2A(""))
	client := func(user string) *a2aclient.Client { return a2aUserClient(t, ts.URL, key.Token(t, user, nil)) }
	alice, bob := client("alice"), client("bob")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	next, stop := iter.Pull2(alice.SendStreamingMessage(ctx, userMessage("ctx-a", "my secret")))
	defer stop()
	first, err, _ := next()
	if err != nil {
		t.Fatal(err)
	}
	taskID := first.TaskInfo().TaskID
	<-model.started

	refused := func(state string) {
		t.Helper()
		// A call that reaches alice's running task waits on it: bounded,
		// it fails with the deadline instead.
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		for _, c := range []struct {
			method string
			call   func() error
		}{
			{"tasks/get", func() error { _, err := bob.GetTask(ctx, &a2a.TaskQueryParams{ID: taskID}); return err }},
			{"tasks/resubscribe", func() error {
				for ev, err := range bob.ResubscribeToTask(ctx, &a2a.TaskIDParams{ID: taskID}) {
					if err != nil {
						return err
					}
					t.Errorf("%s: bob resubscribed to alice's task: %v", state, ev)
				}
				return nil
			}},
			{"tasks/cancel", func() error { _, err := bob.CancelTask(ctx, &a2a.TaskIDParams{ID: taskID}); return err }},
			{"message/send", func() error {
				m := userMessage("ctx-a", "continue")
				m.Message.TaskID = taskID
				_, err := bob.SendMessage(ctx, m)
				return err
			}},
			{"message/stream", func() error {
				m := userMessage("ctx-a", "continue")
				m.Message.TaskID = taskID
				for _, err := range bob.SendStreamingMessage(ctx, m) {
					if err != nil {
						return err
					}
				}
				return nil
			}},
		} {
			if err := c.call(); !errors.Is(err, a2a.ErrTaskNotFound) {
				t.Errorf("%s: bob's %s of alice's task = %v, want task not found", state, c.method, err)
			}
		}
	}
	refused("running")
	close(model.gate)
	var last a2a.Event
	for {
		ev, err, ok := next()
		if !ok {
			break
		}
		if err != nil {
			t.Fatalf("alice's stream: %v", err)
		}
		last = ev
	}
	if st, ok := last.(*a2a.TaskStatusUpdateEvent); !ok || st.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("alice's task ended with %#v, want completed: bob's calls touched it", last)
	}
	refused("done")
	if _, err := alice.GetTask(ctx, &a2a.TaskQueryParams{ID: taskID}); err != nil {
		t.Errorf("alice reads her task: %v", err)
	}

	res, err := bob.SendMessage(ctx, userMessage("ctx-a", "hello"))
	if err != nil {
		t.Fatal(err)
	}
	if task := res.(*a2a.Task); task.ID == taskID || task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("bob's message in alice's context: %+v", task)
	}
	sess, err := fx.store.Get(ctx, sessions.GetRequest{AppName: "help", UserID: "bob", SessionID: "ctx-a"})
	if err != nil {
		t.Fatalf("bob's context is not his session: %v", err)
	}
	for _, ev := range sess.GetEvents() {
		if strings.Contains(et.PartString(ev.GetContent().GetParts()[0]), "secret") {
			t.Errorf("bob's session holds alice's message: %v", ev)
		}
	}
}
