package features_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/features"
)

// TestBehaviorFeatureFlags follows ADK's is_feature_enabled: ADK_ENABLE_
// wins over ADK_DISABLE_, either needs "1" or "true" in any case, and
// without them the registry's default holds.
func TestBehaviorFeatureFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		environ []string
		feature features.Name
		want    bool
	}{
		{"default on", nil, features.ProgressiveSSEStreaming, true},
		{"default off", nil, features.JSONSchemaForFuncDecl, false},
		{"disabled", []string{"ADK_DISABLE_PROGRESSIVE_SSE_STREAMING=1"}, features.ProgressiveSSEStreaming, false},
		{"disabled with TRUE", []string{"ADK_DISABLE_PROGRESSIVE_SSE_STREAMING=TRUE"}, features.ProgressiveSSEStreaming, false},
		{"enabled", []string{"ADK_ENABLE_JSON_SCHEMA_FOR_FUNC_DECL=true"}, features.JSONSchemaForFuncDecl, true},
		{"both set: enable wins", []string{"ADK_DISABLE_JSON_SCHEMA_FOR_FUNC_DECL=1", "ADK_ENABLE_JSON_SCHEMA_FOR_FUNC_DECL=1"},
			features.JSONSchemaForFuncDecl, true},
		{"both set, off default: enable wins", []string{"ADK_ENABLE_PROGRESSIVE_SSE_STREAMING=1", "ADK_DISABLE_PROGRESSIVE_SSE_STREAMING=1"},
			features.ProgressiveSSEStreaming, true},
		{"enable not true: disable holds", []string{"ADK_ENABLE_PROGRESSIVE_SSE_STREAMING=0", "ADK_DISABLE_PROGRESSIVE_SSE_STREAMING=1"},
			features.ProgressiveSSEStreaming, false},
		{"yes is not true", []string{"ADK_DISABLE_PROGRESSIVE_SSE_STREAMING=yes"}, features.ProgressiveSSEStreaming, true},
		{"padded is not true", []string{"ADK_DISABLE_PROGRESSIVE_SSE_STREAMING= 1"}, features.ProgressiveSSEStreaming, true},
		{"private MCP flag by its value", []string{"ADK_DISABLE_MCP_GRACEFUL_ERROR_HANDLING=1"}, features.MCPGracefulErrorHandling, false},
		{"unknown name is off", nil, features.Name("NO_SUCH_FEATURE"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := features.FromEnv(t.Context(), slog.New(slog.DiscardHandler), tt.environ)
			if got := s.Enabled(tt.feature); got != tt.want {
				t.Errorf("Enabled(%s) = %v, want %v", tt.feature, got, tt.want)
			}
		})
	}
}

func TestZeroSetHoldsDefaults(t *testing.T) {
	t.Parallel()
	var s features.Set
	if !s.Enabled(features.ToolConfirmation) || s.Enabled(features.SnakeCaseSkillName) {
		t.Error("the zero Set does not hold ADK's defaults")
	}
	off := s.With(features.ToolConfirmation, false)
	if off.Enabled(features.ToolConfirmation) || !s.Enabled(features.ToolConfirmation) {
		t.Error("With changed the original or did not take")
	}
	if st, ok := features.StageOf(features.BigQueryToolset); !ok || st != features.Stable {
		t.Errorf("StageOf(BIG_QUERY_TOOLSET) = %v, %v", st, ok)
	}
}

// TestUnknownFlagsWarnOnce checks that every ADK_ENABLE_/ADK_DISABLE_
// variable naming no feature is logged once, and that ADK's other
// switches and known features are not.
func TestUnknownFlagsWarnOnce(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	features.FromEnv(t.Context(), log, []string{
		"ADK_ENABLE_TELEPORT=1", "ADK_ENABLE_TELEPORT=1", "ADK_DISABLE_WARP=0",
		"ADK_DISABLE_GEMINI_MODEL_ID_CHECK=1", "ADK_ENABLE_PROGRESSIVE_SSE_STREAMING=1", "HOME=/root",
	})
	out := buf.String()
	if n := strings.Count(out, "ADK_ENABLE_TELEPORT"); n != 1 {
		t.Errorf("ADK_ENABLE_TELEPORT warned %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "ADK_DISABLE_WARP") {
		t.Errorf("ADK_DISABLE_WARP not warned:\n%s", out)
	}
	if strings.Contains(out, "GEMINI_MODEL_ID_CHECK") || strings.Contains(out, "PROGRESSIVE") || strings.Count(out, "\n") != 2 {
		t.Errorf("unexpected warnings:\n%s", out)
	}
}

func TestEnvEnabled(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{"1": true, "true": true, "TRUE": true, "True": true, "": false, "0": false,
		"false": false, "yes": false, " 1": false, "on": false} {
		if got := features.EnvEnabled(v); got != want {
			t.Errorf("EnvEnabled(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestChanged(t *testing.T) {
	t.Parallel()
	s := features.FromEnv(t.Context(), slog.New(slog.DiscardHandler), []string{
		"ADK_ENABLE_PROGRESSIVE_SSE_STREAMING=1", "ADK_DISABLE_TOOL_CONFIRMATION=1", "ADK_ENABLE_JSON_SCHEMA_FOR_FUNC_DECL=true"})
	got := s.Changed()
	want := []features.Name{features.JSONSchemaForFuncDecl, features.ToolConfirmation}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Changed = %v, want %v", got, want)
	}
}

func TestActs(t *testing.T) {
	t.Parallel()
	for n, want := range map[features.Name]bool{features.ProgressiveSSEStreaming: true, features.MCPGracefulErrorHandling: true,
		features.ToolConfirmation: true, features.JSONSchemaForFuncDecl: false, features.BigQueryToolset: false} {
		if got := features.Acts(n); got != want {
			t.Errorf("Acts(%s) = %v, want %v", n, got, want)
		}
	}
}
