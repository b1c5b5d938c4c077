package anthropic

import "strings"

// LiteLLMConfigFromEnv returns the settings LiteLLM reads from the
// environment for anthropic/ models, with getenv (os.Getenv in
// production): ANTHROPIC_API_KEY, and ANTHROPIC_API_BASE, else
// ANTHROPIC_BASE_URL, as the base URL when a model declares no api_base.
// It reports whether a key was found.
func LiteLLMConfigFromEnv(getenv func(string) string) (Config, bool) {
	cfg := Config{
		APIKey:  strings.TrimSpace(getenv("ANTHROPIC_API_KEY")),
		BaseURL: strings.TrimSpace(getenv("ANTHROPIC_API_BASE")),
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = strings.TrimSpace(getenv("ANTHROPIC_BASE_URL"))
	}
	return cfg, cfg.APIKey != ""
}

// ClaudeConfigFromEnv returns the settings ADK's Claude class and the
// anthropic SDK's Vertex AI client read from the environment:
// GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION, and
// ANTHROPIC_VERTEX_BASE_URL to replace the endpoint. It reports whether
// a project and a location were found.
func ClaudeConfigFromEnv(getenv func(string) string) (Config, bool) {
	cfg := Config{
		Project:  strings.TrimSpace(getenv("GOOGLE_CLOUD_PROJECT")),
		Location: strings.TrimSpace(getenv("GOOGLE_CLOUD_LOCATION")),
		BaseURL:  strings.TrimSpace(getenv("ANTHROPIC_VERTEX_BASE_URL")),
	}
	return cfg, cfg.Project != "" && cfg.Location != ""
}
