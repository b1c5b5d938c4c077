package openai

import (
	"fmt"
	"strings"

	"github.com/agentsvc/agentsvc/internal/models/registry"
)

// provider is how LiteLLM reaches one OpenAI-compatible provider: the
// environment variables of its endpoint and key, in the order LiteLLM
// reads them, its default endpoint, and the key it sends when none is set
// (empty: a key is required).
type provider struct {
	baseEnv    []string
	keyEnv     []string
	defaultURL string
	defaultKey string
	// suffix is added to the endpoint (Ollama's OpenAI-compatible API
	// lives under /v1; Mistral's endpoint always ends with it).
	suffix string
}

// providers are LiteLLM's (1.x) settings of the providers this adapter
// serves, by LiteLLM's provider prefix.
var providers = map[string]provider{
	"openai":      {baseEnv: []string{"OPENAI_BASE_URL", "OPENAI_API_BASE"}, keyEnv: []string{"OPENAI_API_KEY"}, defaultURL: "https://api.openai.com/v1"},
	"azure":       {baseEnv: []string{"AZURE_API_BASE"}, keyEnv: []string{"AZURE_API_KEY", "AZURE_OPENAI_API_KEY"}},
	"hosted_vllm": {baseEnv: []string{"HOSTED_VLLM_API_BASE"}, keyEnv: []string{"HOSTED_VLLM_API_KEY"}, defaultKey: "fake-api-key"},
	"ollama_chat": {baseEnv: []string{"OLLAMA_API_BASE"}, keyEnv: []string{"OLLAMA_API_KEY"}, defaultURL: "http://localhost:11434", defaultKey: "ollama", suffix: "/v1"},
	"groq":        {baseEnv: []string{"GROQ_API_BASE"}, keyEnv: []string{"GROQ_API_KEY"}, defaultURL: "https://api.groq.com/openai/v1"},
	"mistral":     {baseEnv: []string{"MISTRAL_AZURE_API_BASE"}, keyEnv: []string{"MISTRAL_AZURE_API_KEY", "MISTRAL_API_KEY"}, defaultURL: "https://api.mistral.ai/v1", suffix: "/v1"},
	"deepseek":    {baseEnv: []string{"DEEPSEEK_API_BASE"}, keyEnv: []string{"DEEPSEEK_API_KEY"}, defaultURL: "https://api.deepseek.com/beta"},
	"openrouter":  {baseEnv: []string{"OPENROUTER_API_BASE"}, keyEnv: []string{"OPENROUTER_API_KEY", "OR_API_KEY"}, defaultURL: "https://openrouter.ai/api/v1"},
	"together_ai": {baseEnv: []string{"TOGETHER_AI_API_BASE"}, keyEnv: []string{"TOGETHER_API_KEY", "TOGETHERAI_API_KEY", "TOGETHER_AI_API_KEY", "TOGETHER_AI_TOKEN"}, defaultURL: "https://api.together.ai/v1"},
}

// azureDefaultAPIVersion is LiteLLM's Azure api-version when none is set.
const azureDefaultAPIVersion = "2025-02-01-preview"

// ConfigFromSpec returns the Config of an OpenAI-compatible model
// declaration, its endpoint and key from the declaration's api_base and
// api_key, else from the environment read with getenv, as LiteLLM reads
// them (e.g. OPENAI_API_KEY, OPENAI_BASE_URL or OPENAI_API_BASE;
// AZURE_API_KEY, AZURE_API_BASE, AZURE_API_VERSION). It fails, naming the
// variables, when the provider needs a key or an endpoint and none is set.
// Limits, retry and HTTP client are left to the caller.
func ConfigFromSpec(spec registry.Spec, getenv func(string) string) (Config, error) {
	p, ok := providers[spec.Provider]
	if spec.Kind != registry.KindOpenAI || !ok {
		return Config{}, fmt.Errorf("openai: model %q: provider %q is not OpenAI-compatible", spec.Name, spec.Provider)
	}
	cfg := Config{Name: spec.Name, Model: spec.Model, Headers: spec.Args.Headers, Body: spec.Args.Body,
		Timeout: spec.Args.Timeout, Exception: strings.ToUpper(spec.Provider[:1]) + spec.Provider[1:] + "Exception"}
	if spec.Provider == "openai" {
		cfg.Exception = "OpenAIException"
	}
	cfg.BaseURL = firstSet(spec.Args.APIBase, getenv, p.baseEnv)
	if cfg.BaseURL == "" {
		cfg.BaseURL = p.defaultURL
	}
	if cfg.BaseURL == "" {
		return Config{}, fmt.Errorf("model %q: no endpoint: set the api_base argument or %s", spec.Name, strings.Join(p.baseEnv, " or "))
	}
	if p.suffix != "" && !strings.HasSuffix(strings.TrimRight(cfg.BaseURL, "/"), p.suffix) {
		cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/") + p.suffix
	}
	cfg.APIKey = firstSet(spec.Args.APIKey, getenv, p.keyEnv)
	if cfg.APIKey == "" {
		cfg.APIKey = p.defaultKey
	}
	if cfg.APIKey == "" {
		return Config{}, fmt.Errorf("model %q: no API key: set %s", spec.Name, strings.Join(p.keyEnv, " or "))
	}
	switch spec.Provider {
	case "openai":
		cfg.FileIDs = true
	case "azure":
		cfg.FileIDs, cfg.Azure = true, true
		cfg.APIVersion = firstSet(spec.Args.APIVersion, getenv, []string{"AZURE_API_VERSION"})
		if cfg.APIVersion == "" {
			cfg.APIVersion = azureDefaultAPIVersion
		}
	}
	if spec.Args.NumRetries != nil {
		cfg.Retry = DefaultRetry
		cfg.Retry.MaxAttempts = *spec.Args.NumRetries + 1
	}
	return cfg, nil
}

// firstSet returns v, else the first of the variables that is set.
func firstSet(v string, getenv func(string) string, vars []string) string {
	if v != "" {
		return v
	}
	for _, name := range vars {
		if s := strings.TrimSpace(getenv(name)); s != "" {
			return s
		}
	}
	return ""
}
