package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/a2a"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// a2aPrefix is where ADK's api_server --a2a serves each app.
const a2aPrefix = "/a2a/"

// CheckA2AURL reports whether u can be the public URL of [WithA2A]:
// empty, or an http or https URL of a host without query or fragment.
func CheckA2AURL(u string) error {
	if u == "" {
		return nil
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.RawQuery != "" || p.Fragment != "" {
		return fmt.Errorf("%q is not an http or https URL of a host", u)
	}
	return nil
}

// a2aRoutes are the A2A routes of every app.
func (s *Server) a2aRoutes(baseURL string) ([]handlerRoute, error) {
	infos := make([]*api.App, 0, len(s.apps))
	cards := map[string]a2a.CardOptions{}
	adk2 := map[string]bool{}
	for name, a := range s.apps {
		infos = append(infos, a.Info)
		cards[a.Info.GetName()] = a2a.CardOptions{Bearer: s.authn != nil && s.authn.Bearer(),
			MutualTLS: s.authn != nil && s.authn.Certificates(), MaxIterations: loopBounds(a.Runner.App.Tree.Root())}
		adk2[name] = a.Runner.App.Behavior == runtime.Behavior2x
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].GetName() < infos[j].GetName() })
	svc, err := a2a.NewService(a2a.Config{Apps: infos, Invoker: a2aInvoker{s}, BaseURL: baseURL, Cards: cards, ADK2: adk2,
		Logger: s.log})
	if err != nil {
		return nil, err
	}
	return []handlerRoute{
		{"POST", a2aPrefix + "{app_name}", func(w http.ResponseWriter, r *http.Request, p map[string]string) {
			svc.ServeRPC(w, r, p["app_name"])
		}},
		{"GET", a2aPrefix + "{app_name}" + a2a.CardPath, func(w http.ResponseWriter, r *http.Request, p map[string]string) {
			svc.ServeCard(w, r, p["app_name"])
		}},
	}, nil
}

// loopBounds are the max_iterations of the loops of the tree, by name, which
// the agent cards' skills state.
func loopBounds(root runtime.Agent) map[string]int {
	out := map[string]int{}
	var walk func(runtime.Agent)
	walk = func(a runtime.Agent) {
		if d := runtime.Describe(a); d.Kind == runtime.KindLoop && d.MaxIterations > 0 {
			out[a.Name()] = d.MaxIterations
		}
		for _, s := range a.SubAgents() {
			walk(s)
		}
	}
	walk(root)
	return out
}

// isA2ACardPath reports whether path is an app's agent card, which is
// served without authentication, as A2A has clients read a card to learn
// how to authenticate.
func isA2ACardPath(path string) bool {
	app, ok := strings.CutPrefix(path, a2aPrefix)
	if !ok {
		return false
	}
	app, ok = strings.CutSuffix(app, a2a.CardPath)
	return ok && app != "" && !strings.Contains(app, "/")
}

// a2aInvoker runs A2A messages as invocations, with the checks of Run.
type a2aInvoker struct{ s *Server }

// User implements [a2a.Invoker].
func (a a2aInvoker) User(ctx context.Context) string {
	if a.s.authn == nil {
		return ""
	}
	id, _ := auth.FromContext(ctx)
	return id.Subject
}

// Start implements [a2a.Invoker]: the request is checked as a run before
// its session (the A2A context's) is created, so that a refused message
// stores nothing.
func (a a2aInvoker) Start(ctx context.Context, req a2a.Request) (a2a.Run, error) {
	s := a.s
	run := &api.RunRequest{
		AppName: req.AppName, UserId: req.UserID, SessionId: req.SessionID, NewMessage: req.NewMessage,
		RunConfig: &api.RunConfig{CustomMetadata: req.CustomMetadata},
	}
	if err := a.precheck(ctx, run); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	if err := a.ensureSession(ctx, run); err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	inv, err := s.start(ctx, "", run, nil)
	if err != nil {
		return nil, toStatus(ctx, s.log, err)
	}
	return func(ctx context.Context, send func(*v1.Event) error) error {
		if err := inv.run(ctx, send); err != nil {
			return toStatus(ctx, s.log, err)
		}
		return nil
	}, nil
}

func (a a2aInvoker) precheck(ctx context.Context, req *api.RunRequest) error {
	s := a.s
	if err := validateRunRequest(req); err != nil {
		return err
	}
	if len(req.GetNewMessage().GetParts()) == 0 {
		return invalid("new_message must have at least one part")
	}
	if err := s.checkRunRequest("", req); err != nil {
		return err
	}
	if _, err := s.app(req.AppName); err != nil {
		return err
	}
	return s.authorize(ctx, req.UserId)
}

// ensureSession creates the A2A context's session when missing, as ADK's
// executor does, under CreateSession's limits.
func (a a2aInvoker) ensureSession(ctx context.Context, req *api.RunRequest) error {
	s := a.s
	_, err := s.sessions.Get(ctx, sessions.GetRequest{AppName: req.AppName, UserID: req.UserId, SessionID: req.SessionId,
		NumRecentEvents: 1})
	if err == nil {
		return nil
	}
	if !errors.Is(err, sessions.ErrNotFound) {
		return fmt.Errorf("server: a2a session: %w", err)
	}
	if err := validateNewSessionID(req.SessionId); err != nil {
		return err
	}
	if err := s.limitUser(req.AppName, req.UserId); err != nil {
		return err
	}
	if err := s.checkUserSessions(ctx, req.AppName, req.UserId); err != nil {
		return err
	}
	_, err = s.sessions.Create(ctx, sessions.CreateRequest{AppName: req.AppName, UserID: req.UserId, SessionID: req.SessionId})
	if err != nil && !errors.Is(err, sessions.ErrAlreadyExists) {
		return fmt.Errorf("server: a2a session: %w", err)
	}
	return nil
}
