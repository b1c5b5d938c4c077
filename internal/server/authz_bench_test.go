package server_test

import (
	"strconv"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// BenchmarkRunAuth is one Run over gRPC (bufconn, scripted model, memory
// store) without authentication and with a JWT whose verification is
// cached, as a client sending the same token on every call has it: the
// cost authentication and authorisation add to an invocation.
func BenchmarkRunAuth(b *testing.B) {
	key := authtest.NewKey(b, "k1")
	for _, bc := range []struct {
		name string
		jwt  bool
	}{{"off", false}, {"jwt", true}} {
		b.Run(bc.name, func(b *testing.B) {
			var a *auth.Authenticator
			ctx := b.Context()
			if bc.jwt {
				a = newJWTAuthenticator(b, key)
				ctx = withToken(ctx, key.Token(b, userID, nil))
			}
			fx := newFixture(b, withConfig(func(c *server.Config) { c.Authenticator = a }), withServerOptions(server.AuthOptions(a, nil)...))
			fx.model.SetRecording(false)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				sid := "s" + strconv.Itoa(i)
				if _, err := fx.store.Create(ctx, sessions.CreateRequest{AppName: appName, UserID: userID, SessionID: sid}); err != nil {
					b.Fatal(err)
				}
				fx.model.Enqueue(et.Text("Hello."))
				_, err := fx.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
					NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "hi"}}}})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
