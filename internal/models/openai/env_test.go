package openai_test

import (
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/models/openai"
	"github.com/agentsvc/agentsvc/internal/models/registry"
)

func TestConfigFromSpec(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		args    registry.Args
		env     map[string]string
		baseURL string
		key     string
		err     string
	}{
		{name: "openai/gpt-4o", env: map[string]string{"OPENAI_API_KEY": "k"}, baseURL: "https://api.openai.com/v1", key: "k"},
		{name: "openai/gpt-4o", env: map[string]string{"OPENAI_API_KEY": "k", "OPENAI_API_BASE": "http://b/v1"}, baseURL: "http://b/v1", key: "k"},
		{name: "openai/gpt-4o", env: map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://a/v1", "OPENAI_API_BASE": "http://b/v1"}, baseURL: "http://a/v1", key: "k"},
		{name: "openai/gpt-4o", args: registry.Args{APIBase: "http://local:8000/v1"}, env: map[string]string{"OPENAI_API_KEY": "k"}, baseURL: "http://local:8000/v1", key: "k"},
		{name: "openai/gpt-4o", err: "no API key: set OPENAI_API_KEY"},
		{name: "azure/dep", env: map[string]string{"AZURE_API_KEY": "k", "AZURE_API_BASE": "https://r.openai.azure.com"}, baseURL: "https://r.openai.azure.com", key: "k"},
		{name: "azure/dep", env: map[string]string{"AZURE_API_KEY": "k"}, err: "no endpoint: set the api_base argument or AZURE_API_BASE"},
		{name: "hosted_vllm/m", args: registry.Args{APIBase: "http://vllm:8000/v1"}, baseURL: "http://vllm:8000/v1", key: "fake-api-key"},
		{name: "ollama_chat/llama3", baseURL: "http://localhost:11434/v1", key: "ollama"},
		{name: "groq/llama3", env: map[string]string{"GROQ_API_KEY": "g"}, baseURL: "https://api.groq.com/openai/v1", key: "g"},
		{name: "mistral/m", env: map[string]string{"MISTRAL_API_KEY": "m"}, baseURL: "https://api.mistral.ai/v1", key: "m"},
		{name: "deepseek/d", env: map[string]string{"DEEPSEEK_API_KEY": "d"}, baseURL: "https://api.deepseek.com/beta", key: "d"},
		{name: "openrouter/o/m", env: map[string]string{"OR_API_KEY": "o"}, baseURL: "https://openrouter.ai/api/v1", key: "o"},
		{name: "together_ai/t", env: map[string]string{"TOGETHERAI_API_KEY": "t"}, baseURL: "https://api.together.ai/v1", key: "t"},
	} {
		spec, err := registry.FromCode(registry.ClassLiteLlm, []registry.Arg{{Name: "model", Value: tc.name}})
		if err != nil {
			t.Fatal(err)
		}
		spec.Args = tc.args
		cfg, err := openai.ConfigFromSpec(spec, func(k string) string { return tc.env[k] })
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || cfg.BaseURL != tc.baseURL || cfg.APIKey != tc.key {
			t.Errorf("%s %v: base %q key %q err %v; want %q %q", tc.name, tc.env, cfg.BaseURL, cfg.APIKey, err, tc.baseURL, tc.key)
		}
	}
}
