// Package devui serves the routes of ADK's web UI that only the dev UI
// calls: its files, the agent graphs (ADK 1.x's drawing, 2.x's plots and
// serialized app), the traces of the spans kept in memory, and the empty
// reads of evaluation and the agent builder. It reads agents through
// [runtime.Describe] only, and everything else of the server through
// [Host], so that it never imports the server, gRPC or the gateway; the
// server registers its routes and answers their errors.
package devui

import (
	"context"
	"net/http"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// Route is one route of the dev UI and what serves it; path is in
// grpc-gateway's pattern syntax, params holds the path's variables.
type Route struct {
	Method, Path string
	Handle       func(w http.ResponseWriter, r *http.Request, params map[string]string)
}

// Host is what the dev UI's routes read of the server that serves them.
// Errors passed to Fail, and returned by the other methods, are answered
// as every REST route answers errors.
type Host interface {
	// App returns the app of name, or the error to answer (an invalid
	// name, an unknown app).
	App(name string) (App, error)
	// CheckSessionKey validates a session's key and authorizes the
	// caller for its user.
	CheckSessionKey(ctx context.Context, app, user, session string) error
	// Session returns the session of the key, with its events.
	Session(ctx context.Context, app, user, session string) (*v1.Session, error)
	// TraceUser returns the user whose spans the caller may read: its
	// own; "" for every user's. It is false when the caller may read
	// none.
	TraceUser(ctx context.Context) (string, bool)
	// Fail answers err.
	Fail(w http.ResponseWriter, r *http.Request, err error)
}

// App is what the dev UI draws of an app.
type App struct {
	Name string
	// Root is the root of the app's agent tree.
	Root runtime.Agent
	// Behavior is the ADK release line the app behaves as.
	Behavior runtime.Behavior
	// ClientTools names each agent's client tools (declared by each
	// Connect client), by agent name, in the Agent Config's order.
	ClientTools map[string][]string
}
