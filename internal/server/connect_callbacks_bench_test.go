package server_test

import (
	"testing"
	"testing/fstest"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/procstat"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// BenchmarkConnectBeforeModelCallbackMemoryStoreScriptedModel measures a
// one-model-call Connect invocation without and with a before_model
// callback that lives in the client (answering with no override): the
// difference is one callback round trip. The session store is in memory,
// the model scripted and the client in process over bufconn, so cpu-ns/op
// counts the client's work too.
func BenchmarkConnectBeforeModelCallbackMemoryStoreScriptedModel(b *testing.B) {
	for _, mode := range []string{"none", "before_model"} {
		b.Run(mode, func(b *testing.B) {
			agent := "name: desk_agent\nmodel: m\n"
			var decls []*api.CallbackDeclaration
			if mode == "before_model" {
				agent += "before_model_callbacks: [{name: guard}]\n"
				decls = []*api.CallbackDeclaration{{Name: "guard"}}
			}
			fx := newFixture(b, withApp(fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(agent)}}))
			fx.model.SetRecording(false)
			ctx := b.Context()
			turn := func() {
				created, err := fx.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
				if err != nil {
					b.Fatal(err)
				}
				fx.model.Enqueue(et.Text("Hello."))
				stream, err := fx.runner.Connect(ctx)
				if err != nil {
					b.Fatal(err)
				}
				start := startMsg(created.Session.Id, "Hi")
				start.GetStart().Callbacks = decls
				if err := stream.Send(start); err != nil {
					b.Fatal(err)
				}
				for {
					m, err := stream.Recv()
					if err != nil {
						b.Fatalf("recv: %v", err)
					}
					if c := m.GetCallbackCall(); c != nil {
						res := &api.ConnectRequest{Kind: &api.ConnectRequest_CallbackResult{CallbackResult: &api.CallbackResult{CallId: c.CallId}}}
						if err := stream.Send(res); err != nil {
							b.Fatal(err)
						}
					}
					if m.GetDone() != nil {
						break
					}
				}
			}
			procstat.Loop(b, turn)
		})
	}
}
