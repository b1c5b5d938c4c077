package main

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/agentsvc/agentsvc/examples"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/config"
	"github.com/agentsvc/agentsvc/internal/models/registry"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// service is the server of the agentsvc.v1 services and what it was built
// from besides the backends: the apps, the audit log and the
// authenticator.
type service struct {
	srv   *server.Server
	apps  []*server.App
	authn *auth.Authenticator
	// closeAudit closes the file of --audit-log.
	closeAudit func() error
}

// newService loads the apps of --agents onto the backends and builds the
// server of them. On an error it closes again what it opened.
func newService(ctx context.Context, o *options, b *backends, log *slog.Logger) (_ *service, err error) {
	s := &service{}
	if s.apps, err = loadApps(ctx, o.agents, b.store, b, historySessions(o), log); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			closeApps(context.WithoutCancel(ctx), s.apps, log)
		}
	}()
	for _, a := range s.apps {
		a.Runner.Memory = b.mem
		a.Runner.Artifacts = b.arts
		a.Runner.MaxDepth = o.maxDepth
		a.Runner.HistoryBytes = o.historyBytes
		a.Runner.Telemetry = b.tel.engine
		a.Runner.App.Features = b.flags
	}
	if err := addReplay(s.apps, o.conformanceDir, log); err != nil {
		return nil, err
	}
	audit, closeAudit, err := openAuditLog(o.auditLog)
	if err != nil {
		return nil, err
	}
	if s.authn, err = newAuthenticator(ctx, o, log); err != nil {
		_ = closeAudit()
		return nil, err
	}
	s.closeAudit = closeAudit
	s.srv = server.New(server.Config{Apps: s.apps, Sessions: b.store, Memory: b.mem, Artifacts: b.arts, Logger: log, ToolTimeout: o.toolTimeout,
		MaxInvocationTime: o.maxInvocationTime,
		LeaseTTL:          o.sessionLeaseTTL, SessionBusyWait: sessionBusyWait(o),
		ConnectStartTimeout: o.connectStartTimeout, MaxConnectStreams: maxConnectStreams(o),
		MaxDepth:                        o.maxDepth,
		MaxConcurrentInvocationsPerUser: o.maxUserInvocations,
		UserRate:                        o.userRate, UserBurst: o.userBurst,
		MaxSessionsPerUser:      o.maxUserSessions,
		MaxInflightRequestBytes: inflightBudget(o),
		AuditLogger:             audit,
		Authenticator:           s.authn,
		MeterProvider:           b.tel.meter})
	return s, nil
}

// closeApps closes apps (their plugins and toolsets) within ctx and
// [stopTimeout], logging those that fail.
func closeApps(ctx context.Context, apps []*server.App, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, stopTimeout)
	defer cancel()
	for _, a := range apps {
		if err := a.Runner.App.Close(ctx); err != nil {
			log.Warn("closing app", "app", a.Runner.App.Name, "err", err)
		}
	}
}

// loadApps builds the apps of dir, or the bundled examples when dir is
// empty, each with a runner on store and the model backends of b. On an
// error it closes the apps it built.
func loadApps(ctx context.Context, dir string, store sessions.Service, b *backends, history int, log *slog.Logger) ([]*server.App, error) {
	var fsys fs.FS = examples.FS
	if dir != "" {
		fsys = os.DirFS(dir)
	}
	cfgs, err := config.LoadAll(fsys)
	if err != nil {
		return nil, err
	}
	apps := make([]*server.App, 0, len(cfgs))
	for _, c := range cfgs {
		resolver, err := b.resolver(ctx, c)
		if err != nil {
			closeApps(context.WithoutCancel(ctx), apps, log)
			return nil, err
		}
		app, info, err := config.Build(c)
		if err != nil {
			closeApps(context.WithoutCancel(ctx), apps, log)
			return nil, err
		}
		apps = append(apps, &server.App{
			Runner: &runtime.Runner{App: app, Sessions: store, Models: resolver, HistorySessions: history},
			Info:   info,
		})
	}
	return apps, nil
}

// historySessions returns the runners' HistorySessions for o: the
// runtime's default unless the flag says otherwise (0: none).
func historySessions(o *options) int {
	switch {
	case o.historySessions > 0:
		return o.historySessions
	case o.historySessions == 0:
		return -1
	default:
		return 0 // the runtime's default
	}
}

// maxConnectStreams maps the flag, where 0 means no cap, to
// [server.Config.MaxConnectStreams], where it means the default.
func maxConnectStreams(o *options) int {
	if o.maxConnectStreams <= 0 {
		return -1
	}
	return o.maxConnectStreams
}

// inflightBudget is the server's MaxInflightRequestBytes of
// --max-inflight-request-bytes, whose 0 means no bound.
func inflightBudget(o *options) int64 {
	if o.maxInflightRequestBytes == 0 {
		return -1
	}
	return o.maxInflightRequestBytes
}

// sessionBusyWait maps the flag, where 0 means no wait, to
// [server.Config.SessionBusyWait], where it means the default.
func sessionBusyWait(o *options) time.Duration {
	if o.sessionBusyWait <= 0 {
		return -1
	}
	return o.sessionBusyWait
}

// resolver returns the model resolver of app: its model_code declarations
// built at once (a model that cannot be served stops start-up), other
// names by pattern. An app that names a Gemini model needs Gemini
// credentials.
func (b *backends) resolver(ctx context.Context, app *config.AppConfig) (*registry.Resolver, error) {
	if b.models == nil && app.UsesGemini() {
		return nil, fmt.Errorf("app %s: %w", app.Name, b.noGemini)
	}
	r := &registry.Resolver{Specs: app.Models(), OpenAI: b.openAI, Anthropic: b.anthropic}
	if b.models != nil {
		r.Gemini = b.models
	}
	if err := r.Check(ctx); err != nil {
		return nil, err
	}
	return r, nil
}
