// Package server exposes the engine over gRPC and REST: the RunnerService,
// SessionService and AppService handlers, request validation, the mapping of
// errors to status codes, and the ADK-compatible REST routes.
package server

import (
	"log/slog"
	"sort"
	"sync/atomic"

	"github.com/google/uuid"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// App is an app the server runs: its runner and its description.
type App struct {
	Runner *runtime.Runner
	Info   *api.App
}

// Server implements the agentsvc.v1 services. It is safe for concurrent use.
type Server struct {
	api.UnimplementedRunnerServiceServer
	api.UnimplementedSessionServiceServer
	api.UnimplementedAppServiceServer
	api.UnimplementedArtifactServiceServer

	// settings are the Config's bounds and timeouts with their defaults.
	settings

	apps      map[string]*App
	names     []string
	sessions  sessions.Service
	memory    memory.Service
	artifacts artifacts.Service
	owner     string

	connectStreams atomic.Int64

	// budget is nil without a bound on request bytes in flight.
	budget *requestBudget

	invocations tracker
	// releases owns the retries of lease releases; Stop ends them.
	releases releasers
	// userRate is nil without Config.UserRate.
	userRate *userLimiter
	// audit is Config.AuditLogger; nil means no audit log.
	audit *slog.Logger
	// authn is Config.Authenticator; nil: no authorisation.
	authn *auth.Authenticator
}

// New returns a server for the apps of cfg.
func New(cfg Config) *Server {
	set := newSettings(cfg)
	s := &Server{
		settings:  set,
		apps:      make(map[string]*App, len(cfg.Apps)),
		sessions:  cfg.Sessions,
		memory:    cfg.Memory,
		artifacts: cfg.Artifacts,
		owner:     uuid.NewString(),
		budget:    newRequestBudget(set.maxInflightRequestBytes),
		userRate:  newUserLimiter(set.userRate, set.userBurst),
		audit:     cfg.AuditLogger,
		authn:     cfg.Authenticator,
	}
	s.invocations.maxPerUser = set.maxInvocationsPerUser
	for _, a := range cfg.Apps {
		s.apps[a.Info.Name] = a
		s.names = append(s.names, a.Info.Name)
	}
	sort.Strings(s.names)
	if cfg.MeterProvider != nil {
		if err := s.registerMetrics(cfg.MeterProvider); err != nil {
			s.log.Warn("server metrics not reported", "err", err)
		}
	}
	return s
}

// app returns the named app or a NOT_FOUND error.
func (s *Server) app(name string) (*App, error) {
	if err := validateAppName(name); err != nil {
		return nil, err
	}
	a := s.apps[name]
	if a == nil {
		return nil, &runtime.Error{Code: runtime.CodeNotFound, Reason: v1.ErrorReason_APP_NOT_FOUND.String(), Message: "App not found: " + name}
	}
	return a, nil
}
