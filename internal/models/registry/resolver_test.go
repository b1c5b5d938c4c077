package registry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/registry"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
)

func TestFromName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, provider, model, err string
		kind                       registry.Kind
	}{
		{name: "gemini-2.5-flash", kind: registry.KindGemini, model: "gemini-2.5-flash"},
		{name: "projects/p/locations/l/endpoints/e", kind: registry.KindGemini, model: "projects/p/locations/l/endpoints/e"},
		{name: "claude-3-7-sonnet@20250219", kind: registry.KindAnthropic, model: "claude-3-7-sonnet@20250219"},
		{name: "claude-sonnet-4-5@20250929", kind: registry.KindAnthropic, model: "claude-sonnet-4-5@20250929"},
		{name: "openai/gpt-4o", kind: registry.KindOpenAI, provider: "openai", model: "gpt-4o"},
		{name: "azure/my-deployment", kind: registry.KindOpenAI, provider: "azure", model: "my-deployment"},
		{name: "ollama_chat/llama3", kind: registry.KindOpenAI, provider: "ollama_chat", model: "llama3"},
		{name: "together_ai/meta-llama/Llama-3-70b", kind: registry.KindOpenAI, provider: "together_ai", model: "meta-llama/Llama-3-70b"},
		{name: "anthropic/claude-sonnet-4-5", kind: registry.KindAnthropic, provider: "anthropic", model: "claude-sonnet-4-5"},
		{name: "bedrock/anthropic.claude", err: `provider "bedrock" is not supported`},
		{name: "my-model", kind: registry.KindGemini, model: "my-model"},
	} {
		s, err := registry.FromName(tc.name)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || s.Kind != tc.kind || s.Provider != tc.provider || s.Model != tc.model || s.Name != tc.name {
			t.Errorf("%s: %+v, %v", tc.name, s, err)
		}
	}
}

func TestResolver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gem := scripted.NewResolver(scripted.New("openai/gpt-4o"), scripted.New("gemini-2.5-flash"))
	builds := 0
	r := &registry.Resolver{
		Specs: map[string]registry.Spec{
			"openai/gpt-4o": {Kind: registry.KindOpenAI, Name: "openai/gpt-4o", Provider: "openai", Model: "gpt-4o", Source: "a/root_agent.yaml: model_code"},
		},
		Gemini: gem,
		OpenAI: func(_ context.Context, s registry.Spec) (models.Model, error) {
			builds++
			return gem.Model(ctx, s.Name)
		},
	}
	if err := r.Check(ctx); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := r.Model(ctx, "openai/gpt-4o"); err != nil {
			t.Fatal(err)
		}
	}
	if builds != 1 {
		t.Errorf("builds = %d, want 1", builds)
	}
	if m, err := r.Model(ctx, "gemini-2.5-flash"); err != nil || m.Name() != "gemini-2.5-flash" {
		t.Errorf("gemini: %v, %v", m, err)
	}
	if _, err := r.Model(ctx, "claude-3-5-sonnet"); !errors.Is(err, registry.ErrAnthropicUnavailable) {
		t.Errorf("claude without an adapter: err = %v", err)
	}
	r2 := &registry.Resolver{Specs: map[string]registry.Spec{"claude-x": {Kind: registry.KindAnthropic, Name: "claude-x", Source: "b.yaml: model_code"}}}
	if err := r2.Check(ctx); err == nil || err.Error() != "b.yaml: model_code: anthropic models are not available" {
		t.Errorf("Check = %v", err)
	}
	if _, err := r2.Model(ctx, "gemini-2.5-flash"); !errors.Is(err, registry.ErrGeminiUnavailable) {
		t.Errorf("gemini without credentials: err = %v", err)
	}
}
