package server

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: /version names any build: a module version, else the
// commit and its time, else devel.
func TestVersionOf(t *testing.T) {
	t.Parallel()
	vcs := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "devel"},
		{"tagged", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{"pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128063700-c23b5f1a2b3c+dirty"},
			Settings: vcs("vcs.revision", "c23b5f1a2b3c")}, "v0.0.0-20261128063700-c23b5f1a2b3c+dirty"},
		{"commit", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", "c23b5f1a2b3c", "vcs.time", "2026-11-28T06:37:00Z", "vcs.modified", "false")},
			"devel c23b5f1a2b3c 2026-11-28T06:37:00Z"},
		{"modified commit", &debug.BuildInfo{Main: debug.Module{Version: ""},
			Settings: vcs("vcs.revision", "c23b5f1a2b3c", "vcs.modified", "true")}, "devel c23b5f1a2b3c+dirty"},
		{"nothing known", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := versionOf(tt.bi); got != tt.want {
				t.Errorf("versionOf = %q, want %q", got, tt.want)
			}
		})
	}
}
