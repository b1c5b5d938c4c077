package tools

import (
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestModelVersionRules: the model predicates answer as google-adk's
// model_name_utils (table printed by google-adk 1.39.1).
func TestModelVersionRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		model                  string
		gemini, gemini1, twoUp bool
	}{
		{"gemini-2.5-flash", true, false, true},
		{"gemini-1.5-pro", true, true, false},
		{"gemini-1.0", true, true, false},
		{"gemini-3-pro-preview", true, false, true},
		{"gemini-10.0-x", true, false, true},
		{"gemini-exp-1206", true, false, false},
		{"gemini-flash-early-exp", true, false, true},
		{"gemini-flash-lite-early-exp3", true, false, true},
		{"models/gemini-2.0-flash", true, false, true},
		{"projects/p/locations/l/publishers/google/models/gemini-1.5-flash", true, true, false},
		{"projects/p/locations/l/models/gemini-2.5-flash", false, false, false},
		{"apigee/gemini-2.5-flash", true, false, true},
		{"apigee/v1/gemini-1.5-pro", true, true, false},
		{"gpt-4o", false, false, false},
		{"gemini-2.5rc1-x", true, false, true},
		{"gemini-", true, false, false},
		{"gemini-02.0", true, false, true},
		{"gemini-v2", true, false, true},
	}
	for _, tt := range tests {
		if got := [3]bool{isGemini(tt.model), isGemini1(tt.model), isGemini2OrAbove(tt.model)}; got != [3]bool{tt.gemini, tt.gemini1, tt.twoUp} {
			t.Errorf("%s: gemini, 1.x, 2+ = %v, want %v", tt.model, got, [3]bool{tt.gemini, tt.gemini1, tt.twoUp})
		}
	}
}

// TestModelCheckDisabled: with ADK_DISABLE_GEMINI_MODEL_ID_CHECK, Gemini's
// tools go to any model but a Gemini 1.x one keeps its rules.
func TestModelCheckDisabled(t *testing.T) {
	t.Setenv("ADK_DISABLE_GEMINI_MODEL_ID_CHECK", "TRUE")
	adders := map[string]func(string, *v1.GenerateContentConfig) error{
		"google_search": addGoogleSearch, "url_context": addURLContext,
		"enterprise_web_search": addEnterpriseWebSearch, "google_maps": addGoogleMaps,
	}
	for name, add := range adders {
		cfg := &v1.GenerateContentConfig{}
		if err := add("internal-model-7", cfg); err != nil || len(cfg.Tools) != 1 {
			t.Errorf("%s: %v, %d tools", name, err, len(cfg.Tools))
		}
	}
	if err := addURLContext("gemini-1.5-pro", &v1.GenerateContentConfig{}); err == nil {
		t.Error("url_context on Gemini 1.x: no error")
	}
	t.Setenv("ADK_DISABLE_GEMINI_MODEL_ID_CHECK", "yes")
	if err := addGoogleSearch("internal-model-7", &v1.GenerateContentConfig{}); err == nil {
		t.Error(`"yes" disabled the check; ADK reads only 1 and true`)
	}
}
