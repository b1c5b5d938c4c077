package server_test

import (
	"testing"
	"testing/fstest"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestA2APartMetadataBounded: a 2.x app keeps an incoming part's metadata
// on the stored user part, and refuses metadata nested deeper than the cap
// before it stores or runs anything.
func TestA2APartMetadataBounded(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withoutGRPC(), withApp(fstest.MapFS{
		"help2/root_agent.yaml": {Data: []byte("name: help_agent\nmodel: m\n")},
		"help2/app.yaml":        {Data: []byte("adk_behavior: \"2.x\"\n")},
	}), withConfig(func(c *server.Config) { c.MaxDepth = 3 }))
	ts := fx.serveHTTP(t, server.WithA2A(""))
	card, err := agentcard.DefaultResolver.Resolve(t.Context(), ts.URL+"/a2a/help2")
	if err != nil {
		t.Fatal(err)
	}
	client, err := a2aclient.NewFromCard(t.Context(), card)
	if err != nil {
		t.Fatal(err)
	}
	send := func(contextID string, meta map[string]any) error {
		m := a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "Hi", Metadata: meta})
		m.ContextID = contextID
		_, err := client.SendMessage(t.Context(), &a2a.MessageSendParams{Message: m})
		return err
	}

	deep := map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": 1.0}}}}
	if err := send("deep", deep); err == nil {
		t.Fatal("a part metadata nested too deep was accepted")
	}
	if list, err := fx.store.List(t.Context(), "help2", "A2A_USER_deep"); err != nil || len(list) != 0 {
		t.Fatalf("sessions after the refusal = %v, %v", list, err)
	}
	if fx.model.Calls() != 0 {
		t.Fatalf("model called %d times", fx.model.Calls())
	}

	fx.model.Enqueue(et.Text("Hello."))
	if err := send("ok", map[string]any{"is_user_input": true}); err != nil {
		t.Fatal(err)
	}
	sess, err := fx.store.Get(t.Context(), sessions.GetRequest{AppName: "help2", UserID: "A2A_USER_ok", SessionID: "ok"})
	if err != nil || len(sess.Events) == 0 {
		t.Fatalf("session %+v, %v", sess, err)
	}
	pm := sess.Events[0].GetContent().GetParts()[0].GetPartMetadata().AsMap()
	if len(pm) != 1 || pm["is_user_input"] != true {
		t.Fatalf("stored part metadata = %v, want is_user_input", pm)
	}
}
