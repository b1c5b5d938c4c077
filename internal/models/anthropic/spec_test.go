package anthropic

import (
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/models/registry"
)

func TestConfigFromSpec(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	code := func(t *testing.T, class string, args ...registry.Arg) registry.Spec {
		t.Helper()
		s, err := registry.FromCode(class, args)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	t.Run("litellm from the environment", func(t *testing.T) {
		t.Parallel()
		s := code(t, registry.ClassLiteLlm, registry.Arg{Name: "model", Value: "anthropic/claude-sonnet-4-5"},
			registry.Arg{Name: "temperature", Value: 0.5}, registry.Arg{Name: "timeout", Value: 30},
			registry.Arg{Name: "num_retries", Value: 2}, registry.Arg{Name: "extra_headers", Value: map[string]any{"x-team": "a"}})
		cfg, err := ConfigFromSpec(s, env(map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_API_BASE": "http://h"}))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Model != "claude-sonnet-4-5" || cfg.APIKey != "k" || cfg.BaseURL != "http://h" {
			t.Errorf("model, key, base = %q, %q, %q", cfg.Model, cfg.APIKey, cfg.BaseURL)
		}
		if cfg.Args.Temperature == nil || *cfg.Args.Temperature != 0.5 || cfg.Args.ExtraHeaders["x-team"] != "a" {
			t.Errorf("args = %+v", cfg.Args)
		}
		if cfg.Timeout != 30*time.Second || cfg.Retry.MaxAttempts != 3 {
			t.Errorf("timeout, attempts = %v, %d", cfg.Timeout, cfg.Retry.MaxAttempts)
		}
	})
	t.Run("litellm arguments win over the environment", func(t *testing.T) {
		t.Parallel()
		s := code(t, registry.ClassLiteLlm, registry.Arg{Name: "model", Value: "anthropic/claude-sonnet-4-5"},
			registry.Arg{Name: "api_base", Value: "http://mine"}, registry.Arg{Name: "api_key", Value: "mine"})
		cfg, err := ConfigFromSpec(s, env(map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_API_BASE": "http://h"}))
		if err != nil || cfg.APIKey != "mine" || cfg.BaseURL != "http://mine" || cfg.Retry.MaxAttempts != 0 {
			t.Errorf("ConfigFromSpec = %+v, %v", cfg, err)
		}
	})
	t.Run("litellm without a key", func(t *testing.T) {
		t.Parallel()
		s := code(t, registry.ClassLiteLlm, registry.Arg{Name: "model", Value: "anthropic/claude-sonnet-4-5"})
		if _, err := ConfigFromSpec(s, env(nil)); err == nil {
			t.Error("ConfigFromSpec without ANTHROPIC_API_KEY succeeded")
		}
	})
	t.Run("claude on vertex", func(t *testing.T) {
		t.Parallel()
		s := code(t, registry.ClassClaude, registry.Arg{Name: "model", Value: "claude-sonnet-4-5@20250929"},
			registry.Arg{Name: "max_tokens", Value: 1024})
		cfg, err := ConfigFromSpec(s, env(map[string]string{"GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "l",
			"ANTHROPIC_VERTEX_BASE_URL": "http://v/v1", "ANTHROPIC_API_KEY": "ignored"}))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Model != "claude-sonnet-4-5@20250929" || cfg.Project != "p" || cfg.Location != "l" || cfg.BaseURL != "http://v/v1" ||
			cfg.APIKey != "" || cfg.Args.MaxTokens == nil || *cfg.Args.MaxTokens != 1024 {
			t.Errorf("ConfigFromSpec = %+v", cfg)
		}
	})
	t.Run("not anthropic", func(t *testing.T) {
		t.Parallel()
		if _, err := ConfigFromSpec(registry.Spec{Kind: registry.KindOpenAI, Name: "openai/x"}, env(nil)); err == nil {
			t.Error("ConfigFromSpec of an OpenAI model succeeded")
		}
	})
}
