package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
	"github.com/agentsvc/agentsvc/internal/features"
	memsvc "github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/memory/memoryurl"
	memredis "github.com/agentsvc/agentsvc/internal/memory/redis"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/models/openai"
	"github.com/agentsvc/agentsvc/internal/models/registry"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
	"github.com/agentsvc/agentsvc/internal/sessions/redis"
	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

// maxTraceBuffer bounds --trace-buffer: a span kept takes about a
// kilobyte.
const maxTraceBuffer = 1_000_000

// backends are the systems the service stands on: telemetry, the session
// store, the model endpoint, the memory service and the artifact store,
// opened in this order by [openBackends] and closed in the reverse one by
// [backends.close].
type backends struct {
	// traces keeps the last spans for the dev UI; nil without
	// --trace-buffer.
	traces *tracebuffer.Buffer
	tel    *telemetry
	store  sessions.Service
	// flags are ADK's feature flags of the environment.
	flags features.Set
	// models is the Gemini provider; nil without Gemini credentials, when
	// noGemini says why and only apps without Gemini models load.
	models   *gemini.Provider
	noGemini error
	// openAI builds the apps' OpenAI-compatible models; anthropic their
	// Anthropic models (nil: none can be served).
	openAI, anthropic registry.Constructor
	mem               memsvc.Service
	arts              *blobstore.Store
}

// openBackends opens the backends of o. On an error it closes again, in
// the reverse order, those it opened.
func openBackends(ctx context.Context, o *options, getenv func(string) string, log *slog.Logger) (_ *backends, err error) {
	if o.traceBuffer > maxTraceBuffer {
		return nil, fmt.Errorf("--trace-buffer %d: at most %d spans", o.traceBuffer, maxTraceBuffer)
	}
	b := &backends{}
	if o.traceBuffer > 0 {
		b.traces = tracebuffer.New(o.traceBuffer)
	}
	if b.tel, err = newTelemetry(ctx, getenv, log, b.traces); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			b.close(ctx, log)
		}
	}()
	if b.store, err = openSessions(ctx, o, log, b.tel.storeTracer()); err != nil {
		return nil, err
	}
	if b.flags, b.models, b.noGemini, err = openModels(ctx, o, getenv, log); err != nil {
		return nil, err
	}
	b.openAI = openAIModels(o, getenv)
	b.anthropic = anthropicModels(o, getenv)
	if b.mem, err = openMemory(ctx, o, log, b.tel.storeTracer()); err != nil {
		return nil, err
	}
	if b.arts, err = blobstore.Open(ctx, o.artifacts, blobstore.WithLogger(log)); err != nil {
		return nil, fmt.Errorf("--artifacts %s: %w", redactURL(o.artifacts), err)
	}
	return b, nil
}

// close closes the backends that are open, in the reverse order of their
// opening: the telemetry last, so that the spans of the drain are flushed.
func (b *backends) close(ctx context.Context, log *slog.Logger) {
	if b.arts != nil {
		b.arts.Close()
	}
	if b.mem != nil {
		b.mem.Close()
	}
	if b.store != nil {
		b.store.Close()
	}
	if err := b.tel.shutdown(ctx); err != nil {
		log.Warn("telemetry flush", "err", err)
	}
}

// openModels returns ADK's feature flags of the environment and the Gemini
// provider of the environment and o, which they configure. Without Gemini
// credentials the provider is nil and noGemini says what to set: apps
// that name a Gemini model then fail to load.
func openModels(ctx context.Context, o *options, getenv func(string) string, log *slog.Logger) (_ features.Set, _ *gemini.Provider, noGemini, _ error) {
	flags := features.FromEnv(ctx, log, os.Environ())
	for _, n := range flags.Changed() {
		if !features.Acts(n) {
			log.Warn("ADK feature flag has no effect in agentsvc", "feature", string(n), "enabled", flags.Enabled(n))
		}
	}
	gcfg, hasCreds := gemini.ConfigFromEnv(getenv)
	if o.geminiBaseURL != "" {
		gcfg.BaseURL = o.geminiBaseURL
	}
	if !hasCreds && gcfg.BaseURL == "" {
		return flags, nil, errors.New("no Gemini credentials: set GOOGLE_API_KEY (or GEMINI_API_KEY), or GOOGLE_GENAI_USE_VERTEXAI=1 with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, or point --gemini-base-url at a server that speaks the Gemini API"), nil
	}
	// Keep connections to the model endpoint alive across calls; the
	// default transport keeps two idle connections per host and dials anew
	// under load. Vertex AI without an API key needs the SDK's own client,
	// which carries the default credentials.
	if gcfg.Backend != gemini.BackendVertexAI || gcfg.APIKey != "" {
		gcfg.HTTPClient = pooledHTTPClient()
	}
	gcfg.Timeout, gcfg.MaxResponseBytes, gcfg.MaxChunks = o.modelTimeout, o.maxModelResponseBytes, o.maxModelChunks
	gcfg.LegacyStreaming = !flags.Enabled(features.ProgressiveSSEStreaming)
	provider, err := gemini.New(ctx, gcfg)
	if err != nil {
		return features.Set{}, nil, nil, fmt.Errorf("gemini: %w", err)
	}
	return flags, provider, nil, nil
}

// openAIModels builds OpenAI-compatible models with credentials from the
// environment, under the limits of o, sharing one pooled HTTP client.
func openAIModels(o *options, getenv func(string) string) registry.Constructor {
	hc := pooledHTTPClient()
	return func(_ context.Context, spec registry.Spec) (models.Model, error) {
		cfg, err := openai.ConfigFromSpec(spec, getenv)
		if err != nil {
			return nil, err
		}
		cfg.HTTPClient, cfg.MaxResponseBytes, cfg.MaxChunks = hc, o.maxModelResponseBytes, o.maxModelChunks
		if cfg.Timeout == 0 || cfg.Timeout > o.modelTimeout {
			cfg.Timeout = o.modelTimeout
		}
		return openai.New(cfg)
	}
}

// anthropicModels builds the apps' Anthropic models (anthropic/ through
// LiteLlm, and ADK's Claude class) with the service's model limits.
func anthropicModels(o *options, getenv func(string) string) registry.Constructor {
	hc := pooledHTTPClient()
	return func(ctx context.Context, spec registry.Spec) (models.Model, error) {
		cfg, err := anthropic.ConfigFromSpec(spec, getenv)
		if err != nil {
			return nil, err
		}
		cfg.HTTPClient, cfg.MaxResponseBytes, cfg.MaxChunks = hc, o.maxModelResponseBytes, int(o.maxModelChunks)
		if cfg.Timeout == 0 || cfg.Timeout > o.modelTimeout {
			cfg.Timeout = o.modelTimeout
		}
		if spec.Class == registry.ClassClaude {
			return anthropic.NewClaude(ctx, cfg)
		}
		return anthropic.NewLiteLLM(ctx, cfg)
	}
}

// pooledHTTPClient is an HTTP client that keeps many idle connections per
// host, for the model endpoint.
func pooledHTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 1024
	tr.MaxIdleConnsPerHost = 1024
	tr.IdleConnTimeout = 90 * time.Second
	return &http.Client{Transport: tr}
}

// openMemory opens the memory service of --memory; a Redis one that cannot
// be reached at start-up is logged, as the session store is.
func openMemory(ctx context.Context, o *options, log *slog.Logger, tp trace.TracerProvider) (memsvc.Service, error) {
	mem, err := memoryurl.Open(ctx, o.memory, memoryurl.Options{Redis: memredis.Options{TracerProvider: tp, MaxRetries: 1,
		DialTimeout: o.redisTimeout, ReadTimeout: o.redisTimeout, WriteTimeout: o.redisTimeout}})
	if err != nil {
		return nil, fmt.Errorf("--memory %s: %w", redactURL(o.memory), err)
	}
	if err := mem.Ping(ctx); err != nil {
		log.Warn("memory service unreachable", "memory", redactURL(o.memory), "err", err)
	}
	return mem, nil
}

// openSessions opens the session store of --sessions; a Redis one that
// cannot be reached at start-up is logged.
func openSessions(ctx context.Context, o *options, log *slog.Logger, tp trace.TracerProvider) (sessions.Service, error) {
	uri := o.sessions
	switch {
	case uri == "" || uri == "memory://":
		return memory.New(memory.WithLimits(sessionLimits(o))), nil
	case strings.HasPrefix(uri, "redis://"), strings.HasPrefix(uri, "rediss://"),
		strings.HasPrefix(uri, "redis+cluster://"), strings.HasPrefix(uri, "rediss+cluster://"):
		// One retry: a store that is down fails requests with UNAVAILABLE
		// quickly instead of holding them through several reconnects.
		store, err := redis.New(uri, redis.Options{TTL: o.sessionTTL, Logger: log, MaxRetries: 1,
			Limits:         sessionLimits(o),
			TracerProvider: tp,
			DialTimeout:    o.redisTimeout, ReadTimeout: o.redisTimeout, WriteTimeout: o.redisTimeout})
		if err != nil {
			return nil, fmt.Errorf("--sessions %s: %w", redactURL(uri), err)
		}
		// Not reaching Redis at start-up is logged, not fatal: the store
		// reconnects, and requests fail with UNAVAILABLE meanwhile.
		if err := store.Ping(ctx); err != nil {
			log.Warn("session store unreachable", "sessions", redactURL(uri), "err", err)
		}
		return store, nil
	default:
		return nil, fmt.Errorf("--sessions %q: use memory://, redis://host:port/db or redis+cluster://host:port,host:port", redactURL(uri))
	}
}

// sessionLimits are the per-session caps of o; 0 in a flag means the default.
func sessionLimits(o *options) sessions.Limits {
	return sessions.Limits{MaxEvents: o.maxSessionEvents, MaxBytes: o.maxSessionBytes}
}

// redactURL hides a password in a store URL.
func redactURL(uri string) string {
	if at := strings.LastIndex(uri, "@"); at >= 0 {
		if scheme := strings.Index(uri, "://"); scheme >= 0 && scheme < at {
			return uri[:scheme+3] + "***" + uri[at:]
		}
	}
	return uri
}
