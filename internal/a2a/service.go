package a2a

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/a2aproject/a2a-go/a2asrv"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// CardPath is where an app's agent card is served below its RPC path, as
// ADK's api_server --a2a serves it.
const CardPath = "/.well-known/agent-card.json"

// Config configures a [Service].
type Config struct {
	// Apps are the apps served, each at "/a2a/<name>".
	Apps []*api.App
	// Invoker runs their invocations.
	Invoker Invoker
	// BaseURL is the service's public URL, which agent cards name; empty
	// derives it from each card request's scheme and Host.
	BaseURL string
	// Cards are what each app's card declares beyond its agent tree, by
	// app name; missing: nothing more.
	Cards map[string]CardOptions
	// MaxTasks bounds the tasks kept per app; default [DefaultMaxTasks].
	MaxTasks int
	// ADK2 names the apps that behave as ADK 2.x (adk_behavior "2.x"):
	// tasks/cancel stops their running tasks, and their events' custom
	// metadata travels as JSON text rather than Python's.
	ADK2   map[string]bool
	Logger *slog.Logger
}

// Service serves apps as A2A agents. Safe for concurrent use.
type Service struct {
	baseURL string
	apps    map[string]*servedApp
}

type servedApp struct {
	info *api.App
	card CardOptions
	rpc  http.Handler
}

// NewService returns the A2A agents of cfg.Apps.
func NewService(cfg Config) (*Service, error) {
	if cfg.Invoker == nil {
		return nil, fmt.Errorf("a2a: an invoker is required")
	}
	if cfg.MaxTasks <= 0 {
		cfg.MaxTasks = DefaultMaxTasks
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	s := &Service{baseURL: cfg.BaseURL, apps: map[string]*servedApp{}}
	for _, app := range cfg.Apps {
		exec := &executor{app: app.GetName(), invoker: cfg.Invoker, now: time.Now, adk2: cfg.ADK2[app.GetName()]}
		tasks := newTaskStore(cfg.MaxTasks, cfg.Invoker.User)
		h := a2asrv.NewHandler(exec, a2asrv.WithTaskStore(tasks), a2asrv.WithLogger(log))
		s.apps[app.GetName()] = &servedApp{info: app, card: cfg.Cards[app.GetName()],
			rpc: &rpcHandler{handler: ownedTasks{RequestHandler: h, tasks: tasks}, log: log}}
	}
	return s, nil
}

// Has reports whether app is served.
func (s *Service) Has(app string) bool { return s.apps[app] != nil }

// ServeRPC answers an A2A JSON-RPC request to app as a2a-sdk's server
// does: message/send, message/stream (server-sent events), tasks/get,
// tasks/resubscribe and tasks/cancel, which stops a running task of an ADK
// 2.x app and is unsupported in ADK 1.x. The caller bounds the body.
func (s *Service) ServeRPC(w http.ResponseWriter, r *http.Request, app string) {
	a := s.apps[app]
	if a == nil {
		http.NotFound(w, r)
		return
	}
	a.rpc.ServeHTTP(w, r)
}

// ServeCard answers app's agent card, built from its root agent by
// [BuildCard] with "<base URL>/a2a/<app>" as its URL. The card is public:
// the caller serves it without authentication.
func (s *Service) ServeCard(w http.ResponseWriter, r *http.Request, app string) {
	a := s.apps[app]
	if a == nil {
		http.NotFound(w, r)
		return
	}
	base := s.baseURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	b, err := json.Marshal(BuildCard(a.info.GetRootAgent(), base+"/a2a/"+app, a.card))
	if err != nil {
		http.Error(w, "agent card", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
