// Package anthropic adapts github.com/anthropics/anthropic-sdk-go to
// [models.Model] in the two ways ADK reaches Claude: as LiteLlm with an
// "anthropic/<model>" name (the Anthropic Messages API, the request built
// as ADK's LiteLlm and LiteLLM build it) and as ADK's Claude class (Claude
// on Vertex AI, with ADK's own conversion). Both stream text deltas as
// partial responses and assemble streamed tool inputs into the final one.
package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/vertex"
	"golang.org/x/oauth2/google"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// liteLLMPrefix is the provider prefix of LiteLlm model names.
const liteLLMPrefix = "anthropic/"

// model is one Claude model; it is safe for concurrent use.
type model struct {
	flavour flavour
	// name is the name the model was declared with.
	name   string
	client anthropic.Client
	args   Args
	limits limits
	policy retry.Config
}

var (
	_ models.Model           = (*model)(nil)
	_ models.SchemaWithTools = (*model)(nil)
)

// NewLiteLLM returns the model ADK's LiteLlm gives for
// model="anthropic/<name>": requests go to the Anthropic Messages API at
// cfg.BaseURL (api_base; default https://api.anthropic.com) with cfg.APIKey
// (ANTHROPIC_API_KEY), built as LiteLLM builds them. It makes no call.
func NewLiteLLM(_ context.Context, cfg Config) (models.Model, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	opts := []option.RequestOption{option.WithoutEnvironmentDefaults(), option.WithHTTPClient(cappedClient(cfg.HTTPClient)),
		option.WithMaxRetries(0)}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		// LiteLLM posts to api_base itself when it already names the route.
		opts = append(opts, option.WithBaseURL(strings.TrimSuffix(strings.TrimSuffix(cfg.BaseURL, "/"), "/v1/messages")))
	}
	policy := cfg.Retry
	if policy.MaxAttempts == 0 {
		policy = retry.Config{MaxAttempts: 1}
	}
	return &model{flavour: liteLLM, name: cfg.Model, client: anthropic.NewClient(opts...), args: cfg.Args,
		limits: limitsOf(cfg, liteLLM), policy: policy}, nil
}

// claudeResourceLocation finds project and location in a Vertex AI
// resource path.
var claudeResourceLocation = regexp.MustCompile(`projects/([^/]+)/locations/([^/]+)/`)

// vertexScope is the OAuth scope of Vertex AI calls.
const vertexScope = "https://www.googleapis.com/auth/cloud-platform"

// NewClaude returns the model of ADK's Claude class: Claude on Vertex AI
// in cfg.Project and cfg.Location (or those of a resource path in
// cfg.Model), authenticated with cfg.Credentials or Application Default
// Credentials, at cfg.BaseURL when set. It fails without a project and
// location or without credentials; it makes no model call.
func NewClaude(ctx context.Context, cfg Config) (models.Model, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	project, location := cfg.Project, cfg.Location
	if m := claudeResourceLocation.FindStringSubmatch(cfg.Model); m != nil && strings.HasPrefix(cfg.Model, "projects/") {
		project, location = m[1], m[2]
	}
	if project == "" || location == "" {
		return nil, fmt.Errorf("anthropic.new_claude: GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION must be set for using Anthropic on Vertex")
	}
	creds := cfg.Credentials
	if creds == nil {
		var err error
		if creds, err = google.FindDefaultCredentials(ctx, vertexScope); err != nil {
			return nil, fmt.Errorf("anthropic.new_claude: %w", err)
		}
	}
	// The HTTP client goes before the Vertex option, which wraps it with
	// the credentials; the base URL after it, which replaces Vertex's.
	opts := []option.RequestOption{option.WithHTTPClient(cappedClient(cfg.HTTPClient)), option.WithMaxRetries(0),
		vertex.WithCredentials(ctx, location, project, creds)}
	if cfg.BaseURL != "" {
		// The SDK's Vertex AI routes start with /v1; a base URL in the form
		// of ANTHROPIC_VERTEX_BASE_URL ends with it.
		opts = append(opts, option.WithBaseURL(strings.TrimSuffix(strings.TrimSuffix(cfg.BaseURL, "/"), "/v1")))
	}
	policy := cfg.Retry
	if policy.MaxAttempts == 0 {
		policy = ClaudeRetry
	}
	return &model{flavour: claude, name: cfg.Model, client: anthropic.NewClient(opts...), args: cfg.Args,
		limits: limitsOf(cfg, claude), policy: policy}, nil
}

// Name returns the model name as declared, e.g. "anthropic/claude-sonnet-4-5".
func (m *model) Name() string { return m.name }

// OutputSchemaWithTools implements [models.SchemaWithTools] as ADK decides:
// always for LiteLlm, never for the Claude class.
func (m *model) OutputSchemaWithTools() bool { return m.flavour == liteLLM }

// request builds the body for req.
func (m *model) request(req *v1.LlmRequest) (*body, error) {
	name := req.GetModel()
	if name == "" {
		name = m.name
	}
	if m.flavour == claude {
		return claudeRequest(name, m.args, req)
	}
	return liteLLMRequest(strings.TrimPrefix(name, liteLLMPrefix), m.args, req)
}

// GenerateContent calls the model with req. See [models.Model] for what it
// yields; the call is bounded by the limits of [Config].
func (m *model) GenerateContent(ctx context.Context, req *v1.LlmRequest, stream bool) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		const op = "anthropic.generate_content"
		b, err := m.request(req)
		if err != nil {
			yield(nil, fmt.Errorf("%s: convert request: %w", op, err))
			return
		}
		raw, err := encodeBody(b, m.args.Extra)
		if err != nil {
			yield(nil, fmt.Errorf("%s: encode request: %w", op, err))
			return
		}
		slog.DebugContext(ctx, "anthropic request", "model", b.Model, "stream", stream, "messages", len(b.Messages), "tools", len(b.Tools))
		c := m.limits.start(ctx)
		defer c.cancel()
		call := sdkCall{b: b, raw: raw}
		if stream {
			m.stream(c, call, yield)
			return
		}
		var out *v1.LlmResponse
		err = m.retry(c.ctx, func(ctx context.Context) error {
			msg, err := m.client.Messages.New(ctx, call.params(), call.options()...)
			if err != nil {
				return c.fail(op, err)
			}
			if out, err = m.flavour.messageResponse(msg, b.schemaTool()); err != nil {
				return fmt.Errorf("%s: %w", op, models.InvalidResponseError("convert response: "+err.Error()))
			}
			return nil
		})
		if err != nil {
			yield(nil, c.interrupted(op, err))
			return
		}
		yield(out, nil)
	}
}

// stream yields every delta as a partial response, then the final one
// (none when no event came).
func (m *model) stream(c *call, sc sdkCall, yield func(*v1.LlmResponse, error) bool) {
	const op = "anthropic.stream_generate_content"
	agg := streamAggregator{flavour: m.flavour, model: sc.b.Model, schemaTool: sc.b.schemaTool()}
	started, stopped := false, false
	err := m.retry(c.ctx, func(ctx context.Context) error {
		s := m.client.Messages.NewStreaming(ctx, sc.params(), sc.options()...)
		defer func() { _ = s.Close() }()
		for s.Next() {
			started = true
			if err := c.chunk(); err != nil {
				return retry.Permanent(fmt.Errorf("%s: %w", op, err))
			}
			ev := s.Current()
			if p := agg.add(&ev); p != nil && !yield(p, nil) {
				stopped = true
				return nil
			}
		}
		if err := s.Err(); err != nil {
			err = c.fail(op, err)
			if started {
				return retry.Permanent(err)
			}
			return err
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
	if err := c.ctx.Err(); err != nil {
		yield(nil, c.fail(op, err))
		return
	}
	final, err := agg.result()
	if err != nil {
		yield(nil, fmt.Errorf("%s: %w", op, models.InvalidResponseError("convert response: "+err.Error())))
		return
	}
	if final != nil {
		yield(final, nil)
	}
}

// retry runs attempt under the model's policy, or the one ctx carries.
func (m *model) retry(ctx context.Context, attempt func(ctx context.Context) error) error {
	policy := m.policy
	if p, ok := retry.FromContext(ctx); ok {
		policy = p
	}
	env := retry.Env{Classify: models.ErrorClass, OnRetry: func(n int, d time.Duration, err error) {
		slog.DebugContext(ctx, "model call retried", "attempt", n, "delay", d, "class", models.ErrorClass(err))
	}}
	return retry.Do(ctx, policy, env, func(ctx context.Context, _ int) error { return attempt(ctx) })
}

// interrupted returns err, or, when the call's context ended during a wait
// between attempts, the error the call reports for that.
func (c *call) interrupted(op string, err error) error {
	if ctxErr := c.ctx.Err(); ctxErr != nil && err == ctxErr {
		return c.fail(op, ctxErr)
	}
	return err
}

// sdkCall is one request through the SDK: the body goes as built (the
// SDK adds "stream" for a stream; for Vertex AI it moves the model into
// the URL and adds anthropic_version), the typed parameters serve only the
// SDK's bookkeeping.
type sdkCall struct {
	b   *body
	raw []byte
}

func (sc sdkCall) params() anthropic.MessageNewParams {
	return anthropic.MessageNewParams{Model: anthropic.Model(sc.b.Model)}
}

// options returns the options of one attempt; each gets its own copy of
// the body, which the SDK may edit in place.
func (sc sdkCall) options() []option.RequestOption {
	opts := []option.RequestOption{option.WithRequestBody("application/json", bytes.Clone(sc.raw))}
	for k, v := range sc.b.headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	return opts
}

// encodeBody returns b as JSON with the fields of extra that b does not
// set.
func encodeBody(b *body, extra map[string]any) ([]byte, error) {
	raw, err := json.Marshal(b)
	if err != nil || len(extra) == 0 {
		return raw, err
	}
	fields := map[string]json.RawMessage{}
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, set := fields[k]; set {
			continue
		}
		e, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("argument %s: %w", k, err)
		}
		fields[k] = e
	}
	return json.Marshal(fields)
}

// schemaTool reports whether the response schema went as json_tool_call.
func (b *body) schemaTool() bool { return b.ToolChoice["name"] == jsonToolName }
