package anthropic_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/models/anthropic"
)

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	lite, ok := anthropic.LiteLLMConfigFromEnv(env(map[string]string{"ANTHROPIC_API_KEY": " k ", "ANTHROPIC_BASE_URL": "http://b"}))
	if diff := cmp.Diff(anthropic.Config{APIKey: "k", BaseURL: "http://b"}, lite); diff != "" || !ok {
		t.Errorf("LiteLLMConfigFromEnv = %v (-want +got):\n%s", ok, diff)
	}
	if _, ok := anthropic.LiteLLMConfigFromEnv(env(nil)); ok {
		t.Error("LiteLLMConfigFromEnv without a key reports one")
	}
	claude, ok := anthropic.ClaudeConfigFromEnv(env(map[string]string{"GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "us-east5",
		"ANTHROPIC_VERTEX_BASE_URL": "http://f/v1"}))
	if diff := cmp.Diff(anthropic.Config{Project: "p", Location: "us-east5", BaseURL: "http://f/v1"}, claude); diff != "" || !ok {
		t.Errorf("ClaudeConfigFromEnv = %v (-want +got):\n%s", ok, diff)
	}
}
