// Package gemini adapts google.golang.org/genai to [models.Model]: it
// converts an [v1.LlmRequest] into a Gemini generateContent call and the
// answer back into [v1.LlmResponse] values as ADK's Gemini model does,
// streaming included. Common calls skip the SDK's conversions through maps:
// the adapter writes the SDK's body itself and reads the common answers
// itself (see [directCaller]), leaving the rest to the SDK.
package gemini

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"slices"
	"time"

	"google.golang.org/genai"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// placeholderAPIKey is sent when a BaseURL is configured without a key: the
// SDK insists on a key for the Gemini API, a local server ignores it.
const placeholderAPIKey = "no-key"

// Provider resolves model names to Gemini models sharing one API client.
// It is safe for concurrent use.
type Provider struct {
	client *genai.Client
	conv   requestConverter
	limits limits
	cache  *cacheManager
	retry  *retrier
	legacy bool
	direct *directCaller
}

var _ models.Resolver = (*Provider)(nil)

// New returns a Provider for cfg. It fails when the backend is unknown or the
// SDK finds no usable credentials.
func New(ctx context.Context, cfg Config) (*Provider, error) {
	cc := &genai.ClientConfig{
		APIKey:     cfg.APIKey,
		HTTPClient: tapped(cfg.HTTPClient),
		HTTPOptions: genai.HTTPOptions{
			BaseURL: cfg.BaseURL,
			// No RetryOptions: the SDK makes one attempt and the adapter
			// retries (see retry.go).
			Headers: cfg.Headers.Clone(),
		},
	}
	var conv requestConverter
	scope := cacheScope{Backend: "gemini", BaseURL: cfg.BaseURL}
	switch cfg.Backend {
	case "", BackendGeminiAPI:
		cc.Backend = genai.BackendGeminiAPI
		if cc.APIKey == "" && cfg.BaseURL != "" {
			cc.APIKey = placeholderAPIKey
		}
	case BackendVertexAI:
		cc.Backend = genai.BackendVertexAI
		cc.Project, cc.Location = cfg.Project, cfg.Location
		conv.vertex = true
		scope = cacheScope{Backend: "vertex", BaseURL: cfg.BaseURL, Project: cfg.Project, Location: cfg.Location}
	default:
		return nil, fmt.Errorf("gemini.new: unknown backend %q", cfg.Backend)
	}
	// NewClient fills in cc; the direct path's loopback client starts from
	// what it was given.
	given := *cc
	given.HTTPOptions.Headers = cfg.Headers.Clone()
	client, err := genai.NewClient(ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("gemini.new: %w", err)
	}
	if hc := client.ClientConfig().HTTPClient; cfg.HTTPClient == nil && hc != nil {
		// The SDK made this client (with credentials, for Vertex AI); it is
		// nobody else's.
		hc.Transport = instrumented(hc.Transport)
	}
	direct := newDirectCaller(ctx, client, given)
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	cache := &cacheManager{api: genaiCaches{client}, scope: scope, now: now}
	return &Provider{client: client, conv: conv, limits: limitsFrom(cfg), cache: cache, retry: newRetrier(cfg.Retry),
		legacy: cfg.LegacyStreaming, direct: direct}, nil
}

// ErrNoModelName is returned by [Provider.Model] for an empty name.
var ErrNoModelName = errors.New("gemini: empty model name")

// Model returns the model called name, e.g. "gemini-2.5-flash". It makes no
// call; an unknown name fails at the first request.
func (p *Provider) Model(_ context.Context, name string) (models.Model, error) {
	if name == "" {
		return nil, fmt.Errorf("gemini.model: %w", ErrNoModelName)
	}
	return &model{name: name, client: p.client, conv: p.conv, limits: p.limits, cache: p.cache, retry: p.retry,
		legacyStreaming: p.legacy, direct: p.direct}, nil
}

// model is one Gemini model; it is safe for concurrent use.
type model struct {
	name   string
	client *genai.Client
	conv   requestConverter
	limits limits
	// cache handles requests that carry a context cache config; nil
	// leaves them uncached.
	cache *cacheManager
	retry *retrier
	// legacyStreaming is Config.LegacyStreaming.
	legacyStreaming bool
	// direct sends the requests it can write itself; nil leaves all to
	// the SDK.
	direct *directCaller
}

// Name returns the model name.
func (m *model) Name() string { return m.name }

// GenerateContent calls Gemini with req, under req.Model when it is set and
// the model's name otherwise. See [models.Model] for what it yields. The
// call is bounded by the Provider's limits (see [Config]): past its timeout
// or its caps it fails with a [models.Error].
func (m *model) GenerateContent(ctx context.Context, req *v1.LlmRequest, stream bool) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		name := req.GetModel()
		if name == "" {
			name = m.name
		}
		cfg, err := m.conv.config(req.GetConfig())
		if err != nil {
			yield(nil, fmt.Errorf("gemini.generate_content: convert request: %w", err))
			return
		}
		if body, ok := m.directBody(name, req, cfg); ok {
			slog.DebugContext(ctx, "gemini request", "model", name, "stream", stream, "contents", contentCount(req), "tools", len(cfg.Tools))
			c := m.limits.startCall(ctx)
			defer c.stop()
			if stream {
				m.stream(c, func(ctx context.Context) iter.Seq2[*genai.GenerateContentResponse, error] {
					return m.direct.stream(ctx, name, body)
				}, nil, yield)
				return
			}
			m.generate(c, func(ctx context.Context) (*genai.GenerateContentResponse, error) {
				return m.direct.generate(ctx, name, body)
			}, nil, yield)
			return
		}
		contents := m.conv.contents(req)
		slog.DebugContext(ctx, "gemini request", "model", name, "stream", stream, "contents", len(contents), "tools", len(cfg.Tools))
		c := m.limits.startCall(ctx)
		defer c.stop()
		cacheMeta := m.contextCache(c.ctx, name, req, &contents, cfg)
		if stream {
			m.stream(c, func(ctx context.Context) iter.Seq2[*genai.GenerateContentResponse, error] {
				return m.client.Models.GenerateContentStream(ctx, name, contents, cfg)
			}, cacheMeta, yield)
			return
		}
		m.generate(c, func(ctx context.Context) (*genai.GenerateContentResponse, error) {
			return m.client.Models.GenerateContent(ctx, name, contents, cfg)
		}, cacheMeta, yield)
	}
}

// generate makes a unary call with send, retrying as the policy says, and
// yields its response or error.
func (m *model) generate(c *call, send func(ctx context.Context) (*genai.GenerateContentResponse, error),
	cacheMeta *v1.CacheMetadata, yield func(*v1.LlmResponse, error) bool) {
	var out *v1.LlmResponse
	err := m.retry.do(c.ctx, func(ctx context.Context) error {
		tctx, tap := withTap(ctx)
		resp, err := recoverAnswer(func() (*genai.GenerateContentResponse, error) {
			return send(tctx)
		})
		if err != nil {
			return c.fail("gemini.generate_content", tap.withStatus(err))
		}
		if out, err = createResponse(resp); err != nil {
			return fmt.Errorf("gemini.generate_content: %w", models.InvalidResponseError("convert response: "+err.Error()))
		}
		setKeyOrders(out, responseCallKeys(tap.body()))
		return nil
	})
	if err != nil {
		yield(nil, c.interrupted("gemini.generate_content", err))
		return
	}
	out.CacheMetadata = cacheMeta
	yield(out, nil)
}

// stream yields every chunk of the streams open returns as a partial
// response, then the aggregate (none when the stream had no chunk, as in
// ADK).
func (m *model) stream(c *call, open func(ctx context.Context) iter.Seq2[*genai.GenerateContentResponse, error],
	cacheMeta *v1.CacheMetadata, yield func(*v1.LlmResponse, error) bool) {
	const op = "gemini.stream_generate_content"
	var agg streamAggregator
	// An attempt that failed before its first chunk is retried; once a
	// chunk is out, a failure ends the call.
	started, stopped := false, false
	var legacy *legacyStream
	if m.legacyStreaming {
		legacy = &legacyStream{}
	}
	err := m.retry.do(c.ctx, func(ctx context.Context) error {
		tctx, tap := withTap(ctx)
		for chunk, err := range recoverStream(open(tctx)) {
			if err != nil {
				err = c.fail(op, tap.withStatus(err))
				if started {
					return retry.Permanent(err)
				}
				return err
			}
			started = true
			if err := c.chunk(); err != nil {
				return retry.Permanent(fmt.Errorf("%s: %w", op, err))
			}
			resp, err := createResponse(chunk)
			if err != nil {
				return retry.Permanent(fmt.Errorf("%s: %w", op, models.InvalidResponseError("convert response: "+err.Error())))
			}
			// The SDK reads one response per data line, in order.
			if data, ok := tap.nextEvent(); ok {
				setKeyOrders(resp, responseCallKeys(data))
			}
			agg.add(chunk, resp)
			if legacy != nil {
				for _, r := range legacy.process(resp) {
					if !yield(r, nil) {
						stopped = true
						return nil
					}
				}
				continue
			}
			resp.Partial = proto.Bool(true)
			if !yield(resp, nil) {
				stopped = true
				return nil
			}
		}
		return nil
	})
	if stopped {
		return
	}
	if err != nil {
		yield(nil, c.interrupted(op, err))
		return
	}
	if err := c.done(op); err != nil {
		yield(nil, err)
		return
	}
	if final := agg.result(); final != nil {
		if legacy != nil {
			final = legacy.final(final)
		}
		// ADK's aggregate says partial=False where a whole answer says
		// nothing; the stored event keeps the difference.
		final.Partial = proto.Bool(false)
		final.CacheMetadata = cacheMeta
		yield(final, nil)
	}
}

// contextCache runs the cache manager when req carries a cache config, as
// ADK's Gemini model does before each call: it may rewrite contents and
// cfg to use a cache, and returns the metadata for the response.
func (m *model) contextCache(ctx context.Context, name string, req *v1.LlmRequest, contents *[]*genai.Content, cfg *genai.GenerateContentConfig) *v1.CacheMetadata {
	cc := req.GetCacheConfig()
	if cc == nil || m.cache == nil {
		return nil
	}
	src := req.GetContents()
	if slices.Contains(src, nil) {
		src = slices.DeleteFunc(slices.Clone(src), func(c *v1.Content) bool { return c == nil })
	}
	call := &cacheCall{model: name, source: req, sourceContents: src, contents: *contents, cfg: cfg, config: cc,
		meta: req.GetCacheMetadata(), tokens: req.CacheableContentsTokenCount}
	meta := m.cache.handle(ctx, call)
	*contents = call.contents
	return meta
}

// directBody returns the body the direct path sends for req to model name,
// or false when the SDK sends req: a context cache is involved, the name
// is one the SDK refuses, or the body holds what the direct path does not
// write.
func (m *model) directBody(name string, req *v1.LlmRequest, cfg *genai.GenerateContentConfig) ([]byte, bool) {
	if m.direct == nil || !usable(name) || (req.GetCacheConfig() != nil && m.cache != nil) {
		return nil, false
	}
	return m.conv.appendBody(make([]byte, 0, 1024), req, cfg)
}

// contentCount is the number of contents sent for req: len of
// [requestConverter.contents].
func contentCount(req *v1.LlmRequest) int {
	n, last := 0, ""
	for _, c := range req.GetContents() {
		if c != nil {
			n++
			last = c.GetRole()
		}
	}
	if n == 0 || last != roleUser {
		n++
	}
	return n
}
