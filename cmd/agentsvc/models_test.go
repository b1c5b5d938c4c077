package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// TestLoadAppsModelCredentials checks which apps load without Gemini
// credentials: those whose models are all another provider's.
func TestLoadAppsModelCredentials(t *testing.T) {
	t.Parallel()
	const lite = "name: a\nmodel_code:\n  name: google.adk.models.lite_llm.LiteLlm\n  args:\n    - name: model\n      value: "
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"openai", lite + "openai/gpt-4o-mini\n", ""},
		{"local", lite + "openai/qwen\n    - name: api_base\n      value: http://127.0.0.1:8000/v1\n", ""},
		{"gemini", "name: a\nmodel: gemini-2.5-flash\n", "app s: no Gemini credentials: set GOOGLE_API_KEY"},
		{"claude", "name: a\nmodel: claude-3-5-sonnet-v2@20241022\n", "s/root_agent.yaml: model: anthropic models are not available"},
		{"azure", lite + "azure/dep\n", `s/root_agent.yaml: model_code: model "azure/dep": no endpoint: set the api_base argument or AZURE_API_BASE`},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "s"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "s", "root_agent.yaml"), []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"OPENAI_API_KEY": "sk-test", "AZURE_API_KEY": "k"}
		getenv := func(k string) string { return env[k] }
		o, err := parseFlags([]string{"--agents", dir}, getenv)
		if err != nil {
			t.Fatal(err)
		}
		log := slog.New(slog.DiscardHandler)
		_, provider, noGemini, err := openModels(t.Context(), o, getenv, log)
		if err != nil || provider != nil || noGemini == nil {
			t.Fatalf("openModels without credentials: %v, %v, %v", provider, noGemini, err)
		}
		b := &backends{noGemini: noGemini, openAI: openAIModels(o, getenv)}
		apps, err := loadApps(t.Context(), dir, memory.New(), b, 0, log)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
		closeApps(t.Context(), apps, log)
	}
}
