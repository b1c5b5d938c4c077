package server_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// helpApp is an app served over A2A: an agent with a long-running tool.
var helpApp = fstest.MapFS{
	"help/root_agent.yaml": {Data: []byte("name: help_agent\nmodel: m\ndescription: Answers questions.\ntools:\n  - name: get_user_choice\n")},
}

// a2aStack serves helpApp over A2A and holds an SDK client of it.
type a2aStack struct {
	*fixture
	card   *a2a.AgentCard
	client *a2aclient.Client
	url    string // of the app's JSON-RPC endpoint
}

func newA2AStack(t *testing.T, opts ...fixtureOption) *a2aStack {
	t.Helper()
	fx := newFixture(t, append([]fixtureOption{withoutGRPC(), withApp(helpApp)}, opts...)...)
	ts := fx.serveHTTP(t, server.WithA2A(""))
	card, err := agentcard.DefaultResolver.Resolve(t.Context(), ts.URL+"/a2a/help")
	if err != nil {
		t.Fatal(err)
	}
	client, err := a2aclient.NewFromCard(t.Context(), card)
	if err != nil {
		t.Fatal(err)
	}
	return &a2aStack{fixture: fx, card: card, client: client, url: ts.URL + "/a2a/help"}
}

func userMessage(contextID, text string) *a2a.MessageSendParams {
	m := a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: text})
	m.ContextID = contextID
	return &a2a.MessageSendParams{Message: m}
}

// TestA2ACard: the card is ADK's AgentCardBuilder's for the root agent,
// with the URL the service was reached at.
func TestA2ACard(t *testing.T) {
	t.Parallel()
	s := newA2AStack(t)
	if s.card.Name != "help_agent" || s.card.Description != "Answers questions." || !strings.HasSuffix(s.card.URL, "/a2a/help") {
		t.Fatalf("card = %+v", s.card)
	}
	var ids []string
	for _, sk := range s.card.Skills {
		ids = append(ids, sk.ID+"/"+sk.Name+"/"+strings.Join(sk.Tags, ","))
	}
	if got, want := strings.Join(ids, " "), "help_agent/model/llm help_agent-get_user_choice/get_user_choice/llm,tools"; got != want {
		t.Fatalf("skills = %q, want %q", got, want)
	}
}

// TestA2ASend: message/send runs one invocation in the context's session
// (user A2A_USER_<context id>), completes with the answer as an artifact,
// and tasks/get returns the task.
func TestA2ASend(t *testing.T) {
	t.Parallel()
	s := newA2AStack(t)
	s.model.Enqueue(et.Text("Hello there."))
	res, err := s.client.SendMessage(t.Context(), userMessage("ctx-1", "Hi"))
	if err != nil {
		t.Fatal(err)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("result = %T", res)
	}
	if task.Status.State != a2a.TaskStateCompleted || len(task.Artifacts) != 1 || textOf(task.Artifacts[0].Parts) != "Hello there." {
		t.Fatalf("task = %+v", task)
	}
	got, err := s.client.GetTask(t.Context(), &a2a.TaskQueryParams{ID: task.ID})
	if err != nil || got.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("tasks/get = %+v, %v", got, err)
	}
	sess, err := s.store.Get(t.Context(), sessions.GetRequest{AppName: "help", UserID: "A2A_USER_ctx-1", SessionID: "ctx-1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(et.Events(sess.Events), " | "); !strings.Contains(got, "Hello there.") {
		t.Fatalf("session events = %s", got)
	}
}

// TestBehaviorA2AStreamStates: message/stream shows submitted, then
// working for every update (the aggregator rewrites them), then the final
// state ADK's TaskResultAggregator derives.
func TestBehaviorA2AStreamStates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		reply *v1.LlmResponse
		want  string
	}{
		{"text completes", et.Text("Done."), "submitted working working artifact completed"},
		{"long-running call needs input", et.Call("get_user_choice", `{"options":["a","b"]}`), "submitted working working input-required"},
		{"model error fails", &v1.LlmResponse{ErrorCode: "SAFETY", ErrorMessage: "blocked"}, "submitted working working failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newA2AStack(t)
			s.model.Enqueue(tc.reply)
			var states []string
			for ev, err := range s.client.SendStreamingMessage(t.Context(), userMessage("ctx-s", "Go")) {
				if err != nil {
					t.Fatal(err)
				}
				switch ev := ev.(type) {
				case *a2a.TaskStatusUpdateEvent:
					states = append(states, string(ev.Status.State))
				case *a2a.TaskArtifactUpdateEvent:
					states = append(states, "artifact")
				case *a2a.Task:
					states = append(states, string(ev.Status.State))
				}
			}
			if got := strings.Join(states, " "); got != tc.want {
				t.Fatalf("states = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestA2ARejectedStoresNothing: a message the service refuses (here a
// context id longer than an id may be) answers a JSON-RPC error and
// creates neither session nor task.
func TestA2ARejectedStoresNothing(t *testing.T) {
	t.Parallel()
	s := newA2AStack(t)
	long := strings.Repeat("x", 300)
	if _, err := s.client.SendMessage(t.Context(), userMessage(long, "Hi")); err == nil {
		t.Fatal("send succeeded")
	}
	list, err := s.store.List(t.Context(), "help", "A2A_USER_"+long)
	if err != nil || len(list) != 0 {
		t.Fatalf("sessions = %v, %v", list, err)
	}
	if s.model.Calls() != 0 {
		t.Fatalf("model called %d times", s.model.Calls())
	}
}

func textOf(parts a2a.ContentParts) string {
	var b strings.Builder
	for _, p := range parts {
		if tp, ok := p.(a2a.TextPart); ok {
			b.WriteString(tp.Text)
		}
	}
	return b.String()
}
