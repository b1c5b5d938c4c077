package server

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/server/devui"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// CheckDevUI reports whether files hold the dev UI.
func CheckDevUI(files fs.FS) error {
	if _, err := fs.Stat(files, "index.html"); err != nil {
		return fmt.Errorf("no index.html: %w", err)
	}
	return nil
}

// devRoutes are the routes of package devui as the REST handler's.
func devRoutes(routes []devui.Route) []handlerRoute {
	out := make([]handlerRoute, 0, len(routes))
	for _, r := range routes {
		out = append(out, handlerRoute{r.Method, r.Path, r.Handle})
	}
	return out
}

// devHost is the server as the dev UI's routes read it.
type devHost struct{ h *restRunner }

// App implements [devui.Host].
func (d devHost) App(name string) (devui.App, error) {
	a, err := d.h.s.app(name)
	if err != nil {
		return devui.App{}, err
	}
	return devui.App{Name: a.Info.GetName(), Root: a.Runner.App.Tree.Root(), Behavior: a.Runner.App.Behavior,
		ClientTools: remoteTools(a)}, nil
}

// CheckSessionKey implements [devui.Host].
func (d devHost) CheckSessionKey(ctx context.Context, app, user, session string) error {
	return d.h.s.checkSessionKey(ctx, app, user, session)
}

// Session implements [devui.Host].
func (d devHost) Session(ctx context.Context, app, user, session string) (*v1.Session, error) {
	return d.h.s.sessions.Get(ctx, sessions.GetRequest{AppName: app, UserID: user, SessionID: session})
}

// TraceUser implements [devui.Host].
func (d devHost) TraceUser(ctx context.Context) (string, bool) { return d.h.s.traceUser(ctx) }

// Fail implements [devui.Host].
func (d devHost) Fail(w http.ResponseWriter, r *http.Request, err error) { d.h.fail(w, r, err) }

// remoteTools names each agent's client tools, in the Agent Config's order.
func remoteTools(a *App) map[string][]string {
	infos := map[string]*api.AgentInfo{}
	indexAgents(a.Info.GetRootAgent(), infos)
	remote := map[string][]string{}
	for name, info := range infos {
		for _, t := range info.GetTools() {
			if t.GetRemote() {
				remote[name] = append(remote[name], t.GetName())
			}
		}
	}
	return remote
}
