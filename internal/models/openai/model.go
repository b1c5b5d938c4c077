// Package openai adapts github.com/openai/openai-go to [models.Model] for
// OpenAI's Chat Completions API and the providers that speak it (Azure
// OpenAI, vLLM, Ollama, Groq, Mistral, DeepSeek, OpenRouter, Together AI,
// any OpenAI-compatible server): it sends what ADK's LiteLlm and LiteLLM
// send for an [v1.LlmRequest] and reads the answer back as they do,
// streaming included.
package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/modelhttp"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// Config configures one model.
type Config struct {
	// Name is the model's name in the engine, e.g. "openai/gpt-4o".
	Name string
	// Model is the model the API is asked for, e.g. "gpt-4o" (for Azure,
	// the deployment).
	Model string
	// BaseURL is the API's endpoint, e.g. "https://api.openai.com/v1".
	BaseURL string
	// APIKey authenticates the calls (a bearer token; Azure's api-key
	// header with Azure set). Never logged.
	APIKey string
	// Azure addresses Azure OpenAI: BaseURL is the resource's endpoint and
	// the model a deployment, called with APIVersion.
	Azure      bool
	APIVersion string
	// Headers are added to every request.
	Headers map[string]string
	// Body holds the request body fields of the model's declaration
	// (temperature, max_tokens, ...); the request's own generation
	// settings replace those of the same name.
	Body map[string]any
	// FileIDs tells that the provider takes documents by file id only
	// (OpenAI and Azure), as LiteLlm assumes.
	FileIDs bool
	// Exception names the provider in error messages, as LiteLLM does:
	// "OpenAIException", "AzureException".
	Exception string
	// HTTPClient sends the requests; nil means http.DefaultClient's
	// transport.
	HTTPClient *http.Client
	// Timeout bounds each call, retries and a whole stream included; zero
	// means the context alone.
	Timeout time.Duration
	// MaxResponseBytes caps the body of one answer; zero means
	// [DefaultMaxResponseBytes], negative no cap.
	MaxResponseBytes int64
	// MaxChunks caps the chunks of one streamed answer; zero means
	// [DefaultMaxChunks], negative no cap.
	MaxChunks int
	// Retry is the policy of calls that fail before any answer came; a
	// context carrying another ([retry.NewContext], an agent's
	// retry_config) overrides it. A zero MaxAttempts means [DefaultRetry].
	Retry retry.Config
}

// DefaultRetry is the policy when [Config] sets none: OpenAI's SDK's, which
// LiteLLM keeps: two retries after 0.5s doubling up to 8s, on 429, 5xx and
// unreachable servers.
var DefaultRetry = retry.Config{
	MaxAttempts:   3,
	InitialDelay:  500 * time.Millisecond,
	MaxDelay:      8 * time.Second,
	BackoffFactor: 2,
	Jitter:        0.25,
	Exceptions:    models.TransientClasses,
}

// model is one OpenAI-compatible model; it is safe for concurrent use.
type model struct {
	cfg    Config
	client openai.Client
	retry  retry.Config
	env    retry.Env
}

var (
	_ models.Model           = (*model)(nil)
	_ models.SchemaWithTools = (*model)(nil)
)

// New returns the model of cfg. It makes no call.
func New(cfg Config) (models.Model, error) {
	if cfg.Model == "" {
		return nil, fmt.Errorf("openai.new: %s: empty model", cfg.Name)
	}
	if cfg.BaseURL == "" {
		return nil, fmt.Errorf("openai.new: %s: no endpoint", cfg.Name)
	}
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.MaxChunks == 0 {
		cfg.MaxChunks = DefaultMaxChunks
	}
	if cfg.Exception == "" {
		cfg.Exception = "OpenAIException"
	}
	base := http.DefaultTransport
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		base = cfg.HTTPClient.Transport
	}
	hc := &http.Client{Transport: modelhttp.Transport{Base: base}}
	opts := []option.RequestOption{option.WithHTTPClient(hc), option.WithMaxRetries(0)}
	baseURL := strings.TrimRight(cfg.BaseURL, "/") + "/"
	if cfg.Azure {
		baseURL += "openai/deployments/" + cfg.Model + "/"
		opts = append(opts, option.WithHeader("api-key", cfg.APIKey), option.WithQuery("api-version", cfg.APIVersion),
			option.WithHeaderDel("authorization"))
	} else {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	opts = append(opts, option.WithBaseURL(baseURL))
	for k, v := range cfg.Headers {
		opts = append(opts, option.WithHeader(k, v))
	}
	policy := cfg.Retry
	if policy.MaxAttempts == 0 {
		policy = DefaultRetry
	}
	return &model{cfg: cfg, client: openai.NewClient(opts...), retry: policy, env: retry.Env{Classify: models.ErrorClass}}, nil
}

// Name returns the model's name in the engine.
func (m *model) Name() string { return m.cfg.Name }

// OutputSchemaWithTools implements [models.SchemaWithTools]: ADK's LiteLlm
// sends a response format together with tools.
func (m *model) OutputSchemaWithTools() bool { return true }

// apiModel is the model the request names, without the provider prefix;
// the model's own when the request names none, or names it (also as
// "<name>#<n>", the engine's name of a second declaration of the model).
func (m *model) apiModel(req *v1.LlmRequest) string {
	name := req.GetModel()
	if name == "" || name == m.cfg.Name || strings.HasPrefix(name, m.cfg.Name+"#") || m.cfg.Azure {
		return m.cfg.Model
	}
	if _, rest, ok := strings.Cut(name, "/"); ok {
		return rest
	}
	return name
}

// GenerateContent calls the model with req. See [models.Model] for what it
// yields. The call is bounded by the Config's limits: past them it fails
// with a [models.Error].
func (m *model) GenerateContent(ctx context.Context, req *v1.LlmRequest, stream bool) iter.Seq2[*v1.LlmResponse, error] {
	return func(yield func(*v1.LlmResponse, error) bool) {
		name := m.apiModel(req)
		body, err := requestBody(req, name, m.cfg.Body, m.cfg.FileIDs)
		if err != nil {
			yield(nil, fmt.Errorf("openai.chat_completions: convert request: %w", err))
			return
		}
		if stream {
			body["stream"] = true
			body["stream_options"] = object{"include_usage": true}
		}
		raw, err := json.Marshal(body)
		if err != nil {
			yield(nil, fmt.Errorf("openai.chat_completions: encode request: %w", err))
			return
		}
		slog.DebugContext(ctx, "openai request", "model", name, "stream", stream, "bytes", len(raw))
		c := m.startCall(ctx)
		defer c.stop()
		if stream {
			m.stream(c, name, raw, yield)
			return
		}
		var out *v1.LlmResponse
		err = m.do(c, func(ctx context.Context) error {
			resp, err := m.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{},
				option.WithRequestBody("application/json", raw))
			if err != nil {
				return c.fail("openai.chat_completions", err, m.cfg.Exception)
			}
			if out, err = createResponse(resp); err != nil {
				return fmt.Errorf("openai.chat_completions: %w", models.InvalidResponseError("convert response: "+err.Error()))
			}
			return nil
		})
		if err != nil {
			yield(nil, m.interrupted(c, "openai.chat_completions", err))
			return
		}
		yield(out, nil)
	}
}

// stream yields each text delta as a partial response, then the
// aggregated responses (see [streamAggregator]).
func (m *model) stream(c *call, name string, raw []byte, yield func(*v1.LlmResponse, error) bool) {
	const op = "openai.chat_completions_stream"
	var agg streamAggregator
	started, stopped := false, false
	err := m.do(c, func(ctx context.Context) error {
		s := m.client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{},
			option.WithRequestBody("application/json", raw))
		defer s.Close()
		for s.Next() {
			started = true
			if err := c.chunk(); err != nil {
				return retry.Permanent(fmt.Errorf("%s: %w", op, err))
			}
			chunk := s.Current()
			if p := agg.add(&chunk, name); p != nil {
				p.Partial = proto.Bool(true)
				if !yield(p, nil) {
					stopped = true
					return nil
				}
			}
		}
		if err := s.Err(); err != nil {
			err = c.fail(op, err, m.cfg.Exception)
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
		yield(nil, m.interrupted(c, op, err))
		return
	}
	if err := c.ctx.Err(); err != nil {
		yield(nil, c.fail(op, err, m.cfg.Exception))
		return
	}
	finals, err := agg.results()
	if err != nil {
		yield(nil, fmt.Errorf("%s: %w", op, models.InvalidResponseError("convert response: "+err.Error())))
		return
	}
	for _, f := range finals {
		f.Partial = proto.Bool(false)
		if !yield(f, nil) {
			return
		}
	}
}

// do runs attempt under the retry policy (the context's, else the
// model's).
func (m *model) do(c *call, attempt func(ctx context.Context) error) error {
	policy := m.retry
	if p, ok := retry.FromContext(c.ctx); ok {
		policy = p
	}
	env := m.env
	env.OnRetry = func(n int, d time.Duration, err error) {
		slog.DebugContext(c.ctx, "model call retried", "attempt", n, "delay", d, "class", models.ErrorClass(err))
	}
	return retry.Do(c.ctx, policy, env, func(ctx context.Context, _ int) error { return attempt(ctx) })
}

// interrupted returns err, or, when the call's context ended during a
// wait between attempts, the error the call reports for that.
func (m *model) interrupted(c *call, op string, err error) error {
	if ctxErr := c.ctx.Err(); ctxErr != nil && err == ctxErr {
		return c.fail(op, ctxErr, m.cfg.Exception)
	}
	return err
}
