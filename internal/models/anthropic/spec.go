package anthropic

import (
	"fmt"
	"maps"

	"github.com/agentsvc/agentsvc/internal/models/registry"
)

// ConfigFromSpec returns the settings of an Anthropic model an agent
// declares: ADK's Claude class (Vertex AI, from GOOGLE_CLOUD_PROJECT,
// GOOGLE_CLOUD_LOCATION and ANTHROPIC_VERTEX_BASE_URL, with its
// max_tokens) or an anthropic/ model of LiteLlm (the Anthropic API, from
// ANTHROPIC_API_KEY and ANTHROPIC_API_BASE unless the declaration sets
// api_key or api_base, with LiteLlm's pass-through arguments, extra
// headers, timeout and num_retries). getenv is os.Getenv in production.
// A LiteLlm model without an API key is an error, so that start-up names
// it rather than its first call. The caller sets the transport and the
// service's limits.
func ConfigFromSpec(spec registry.Spec, getenv func(string) string) (Config, error) {
	if spec.Kind != registry.KindAnthropic {
		return Config{}, fmt.Errorf("anthropic: model %q is not an Anthropic model", spec.Name)
	}
	if spec.Class == registry.ClassClaude {
		cfg, _ := ClaudeConfigFromEnv(getenv)
		cfg.Model = spec.Model
		cfg.Args.MaxTokens = spec.Args.MaxTokens
		return cfg, nil
	}
	cfg, _ := LiteLLMConfigFromEnv(getenv)
	cfg.Model = spec.Model
	if spec.Args.APIBase != "" {
		cfg.BaseURL = spec.Args.APIBase
	}
	if spec.Args.APIKey != "" {
		cfg.APIKey = spec.Args.APIKey
	}
	if cfg.APIKey == "" {
		return Config{}, fmt.Errorf("model %q: no API key: set ANTHROPIC_API_KEY", spec.Name)
	}
	args, err := ArgsFromLiteLLM(spec.Args.Body)
	if err != nil {
		return Config{}, fmt.Errorf("model %q: %w", spec.Name, err)
	}
	if len(spec.Args.Headers) > 0 {
		args.ExtraHeaders = maps.Clone(spec.Args.Headers)
	}
	cfg.Args = args
	cfg.Timeout = spec.Args.Timeout
	if spec.Args.NumRetries != nil {
		cfg.Retry = ClaudeRetry
		cfg.Retry.MaxAttempts = *spec.Args.NumRetries + 1
	}
	return cfg, nil
}
