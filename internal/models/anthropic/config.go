package anthropic

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2/google"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// Config configures one Anthropic model. Model is required; everything
// else has a default.
type Config struct {
	// Model is the model name as the API knows it, e.g.
	// "claude-sonnet-4-5" (without LiteLLM's "anthropic/" prefix). For the
	// Claude class it may be a Vertex AI resource path
	// "projects/<p>/locations/<l>/..." whose project and location win over
	// Project and Location, as ADK reads them.
	Model string
	// BaseURL replaces the API endpoint: LiteLlm's api_base (the adapter
	// calls <BaseURL>/v1/messages, or BaseURL itself when it ends with
	// /v1/messages, as LiteLLM does), or the Vertex AI endpoint of the
	// Claude class (with or without a final /v1, as
	// ANTHROPIC_VERTEX_BASE_URL writes it). Empty means the provider's
	// public endpoint (for Vertex AI, the location's).
	BaseURL string
	// APIKey authenticates with the Anthropic API (LiteLlm, from
	// ANTHROPIC_API_KEY). It is never logged. The Claude class ignores it.
	APIKey string
	// Project and Location address Vertex AI for the Claude class
	// (GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION).
	Project, Location string
	// Credentials authenticate with Vertex AI; nil means Application
	// Default Credentials, looked up by [NewClaude].
	Credentials *google.Credentials
	// HTTPClient sends the requests; nil means a client of the SDK.
	HTTPClient *http.Client
	// Args are the model's extra arguments, as LiteLlm passes its YAML args
	// through or the Claude class reads max_tokens.
	Args Args
	// Timeout bounds each call (retries and the whole of a streamed answer
	// included); past it the call fails with a [models.Error] of status
	// DEADLINE_EXCEEDED. Zero means the context alone bounds it.
	Timeout time.Duration
	// MaxResponseBytes caps the body of one answer (a whole response, or
	// all of a stream), enforced as the bytes arrive; past it the call
	// fails with a [models.Error] of status RESOURCE_EXHAUSTED. Zero means
	// [DefaultMaxResponseBytes], negative no cap.
	MaxResponseBytes int64
	// MaxChunks caps the events of one streamed answer, failing the call as
	// MaxResponseBytes does. Zero means [DefaultMaxChunks], negative no cap.
	MaxChunks int
	// Retry is the policy of calls that fail before any answer came; a
	// context carrying another policy ([retry.NewContext], an agent's
	// retry_config) overrides it. A zero MaxAttempts means the flavour's
	// default: one attempt through LiteLlm, which does not retry, and
	// [ClaudeRetry] for the Claude class, as the anthropic SDK retries.
	Retry retry.Config
}

// Defaults of the per-call limits of [Config].
const (
	// DefaultMaxResponseBytes bounds the body of one answer.
	DefaultMaxResponseBytes = 8 << 20
	// DefaultMaxChunks bounds the events of one streamed answer.
	DefaultMaxChunks = 10_000
)

// ClaudeRetry is the policy of the Claude class when [Config] sets none:
// the anthropic Python SDK's two retries, 0.5s doubling up to 8s, on rate
// limits, server failures and unreachable models.
var ClaudeRetry = retry.Config{
	MaxAttempts:   3,
	InitialDelay:  500 * time.Millisecond,
	MaxDelay:      8 * time.Second,
	BackoffFactor: 2,
	Jitter:        0.25,
	Exceptions:    models.TransientClasses,
}

// Args are the generation arguments of a model declaration. A nil field is
// not sent; the request's own generation config (an agent's
// generate_content_config) wins over it, as LiteLlm lets it.
type Args struct {
	// MaxTokens is max_tokens: LiteLLM's default is the model's output
	// limit, the Claude class's 8192.
	MaxTokens *int64
	// Temperature is temperature, 0 to 1.
	Temperature *float64
	// TopP is top_p, 0 to 1.
	TopP *float64
	// TopK is top_k, at least 0.
	TopK *int64
	// Stop is the stop sequences (LiteLlm's stop).
	Stop []string
	// ExtraHeaders are added to every request (LiteLlm's extra_headers);
	// they may carry credentials and are never logged.
	ExtraHeaders map[string]string
	// Extra are further body fields LiteLlm passes through as written
	// (e.g. metadata); they never replace a field the adapter sets.
	Extra map[string]any
}

// ArgsFromLiteLLM reads LiteLlm's pass-through keyword arguments, in
// their OpenAI names, as LiteLLM maps them for Anthropic: max_tokens (or
// max_completion_tokens), temperature, top_p, top_k and stop (a string or
// a list) become their fields; any other argument is sent as written.
func ArgsFromLiteLLM(kwargs map[string]any) (Args, error) {
	var a Args
	for k, v := range kwargs {
		var err error
		switch k {
		case "max_tokens", "max_completion_tokens":
			var n float64
			if n, err = number(k, v); err == nil {
				t := int64(math.Round(n))
				a.MaxTokens = &t
			}
		case "temperature", "top_p":
			var n float64
			if n, err = number(k, v); err == nil {
				if k == "temperature" {
					a.Temperature = &n
				} else {
					a.TopP = &n
				}
			}
		case "top_k":
			var n float64
			if n, err = number(k, v); err == nil {
				t := int64(n)
				a.TopK = &t
			}
		case "stop":
			a.Stop, err = stopList(v)
		default:
			if a.Extra == nil {
				a.Extra = map[string]any{}
			}
			a.Extra[k] = v
		}
		if err != nil {
			return Args{}, err
		}
	}
	return a, a.Validate()
}

func number(key string, v any) (float64, error) {
	switch n := v.(type) {
	case float64:
		return n, nil
	case int:
		return float64(n), nil
	case int64:
		return float64(n), nil
	}
	return 0, fmt.Errorf("%s: must be a number, got %T", key, v)
}

func stopList(v any) ([]string, error) {
	switch s := v.(type) {
	case string:
		return []string{s}, nil
	case []string:
		return s, nil
	case []any:
		out := make([]string, len(s))
		for i, e := range s {
			str, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("stop[%d]: must be a string, got %T", i, e)
			}
			out[i] = str
		}
		return out, nil
	}
	return nil, fmt.Errorf("stop: must be a string or a list of strings, got %T", v)
}

// Bounds of [Args].
const (
	maxArgsTokens  = 1 << 20
	maxStopEntries = 16
	maxHeaderBytes = 8 << 10
)

// Validate reports the first argument out of range, named as in YAML.
func (a Args) Validate() error {
	switch {
	case a.MaxTokens != nil && (*a.MaxTokens < 1 || *a.MaxTokens > maxArgsTokens):
		return fmt.Errorf("max_tokens: must be between 1 and %d, got %d", maxArgsTokens, *a.MaxTokens)
	case a.Temperature != nil && !inRange(*a.Temperature, 0, 2):
		return fmt.Errorf("temperature: must be between 0 and 2, got %v", *a.Temperature)
	case a.TopP != nil && !inRange(*a.TopP, 0, 1):
		return fmt.Errorf("top_p: must be between 0 and 1, got %v", *a.TopP)
	case a.TopK != nil && *a.TopK < 0:
		return fmt.Errorf("top_k: must not be negative, got %d", *a.TopK)
	case len(a.Stop) > maxStopEntries:
		return fmt.Errorf("stop: at most %d sequences, got %d", maxStopEntries, len(a.Stop))
	}
	size := 0
	for k, v := range a.ExtraHeaders {
		if k == "" || strings.ContainsAny(k, " :\r\n") || strings.ContainsAny(v, "\r\n") {
			return fmt.Errorf("extra_headers: invalid header %q", k)
		}
		size += len(k) + len(v)
	}
	if size > maxHeaderBytes {
		return fmt.Errorf("extra_headers: more than %d bytes", maxHeaderBytes)
	}
	return nil
}

func inRange(v, lo, hi float64) bool { return !math.IsNaN(v) && v >= lo && v <= hi }

// ErrNoModel is returned by the constructors for a Config without a model.
var ErrNoModel = errors.New("anthropic: empty model name")

// validate checks cfg before a constructor uses it.
func (cfg Config) validate() error {
	if strings.TrimSpace(cfg.Model) == "" {
		return ErrNoModel
	}
	if err := cfg.Args.Validate(); err != nil {
		return fmt.Errorf("anthropic: args: %w", err)
	}
	if err := cfg.Retry.Validate(); err != nil {
		return fmt.Errorf("anthropic: retry: %w", err)
	}
	return nil
}
