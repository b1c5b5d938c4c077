package config

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// FuzzLoadAll loads an app whose root_agent.yaml and app.yaml are fuzzed,
// next to a fixed sub-agent file, and builds it when it loads. Invariants:
// no panic; an error or an app that builds or fails to build with an error;
// bounded time (a YAML alias bomb must not expand).
func FuzzLoadAll(f *testing.F) {
	for _, seed := range []struct{ root, app string }{
		{"name: desk_agent\nmodel: m\ntools:\n  - name: get_weather\n  - name: approve\nsub_agents:\n  - config_path: helper.yaml\n", ""},
		{"name: a\nmodel: gemini-2.5-flash\n", "events_compaction_config:\n  compaction_interval: 3\n  overlap_size: 1\n"},
		{"name: a\nmodel: m\n", "resumability_config:\n  is_resumable: true\nplugins:\n  - name: logging\n"},
		{"agent_class: SequentialAgent\nname: seq\nsub_agents:\n  - config_path: helper.yaml\n  - config_path: helper.yaml\n", ""},
		{"agent_class: LoopAgent\nname: loop\nmax_iterations: 3\nsub_agents:\n  - config_path: helper.yaml\n", ""},
		{"name: a\nmodel: m\ninstruction: Hi {name?}, {artifact.f}\noutput_key: out\n" +
			"output_schema:\n  type: object\n  properties:\n    x: {type: string}\n" +
			"generate_content_config:\n  temperature: 0.2\n  max_output_tokens: 100\n", ""},
		{"name: a\nmodel: m\nsub_agents:\n  - config_path: root_agent.yaml\n", ""},
		{"name: a\nmodel: m\ntools:\n  - name: google_search\n    args: {x: 1}\n", ""},
		{"name: a\nmodel: m\nplanner: {name: BuiltInPlanner, args: {thinking_config: {thinking_budget: 8, thinking_level: low}}}\n", ""},
		{"a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nname: a\n", ""},
		{"name: [", ""},
		{aliasBomb(9), aliasBomb(9)},
	} {
		f.Add([]byte(seed.root), []byte(seed.app))
	}
	f.Fuzz(func(t *testing.T, root, app []byte) {
		fsys := fstest.MapFS{
			"s/root_agent.yaml": {Data: root},
			"s/helper.yaml":     {Data: []byte("name: helper\nmodel: m\ntools:\n  - name: send_mail\n")},
		}
		if app != nil {
			fsys["s/app.yaml"] = &fstest.MapFile{Data: app}
		}
		start := time.Now()
		apps, err := LoadAll(fsys)
		if err == nil {
			if len(apps) != 1 || apps[0].Root == nil {
				t.Fatalf("LoadAll = %v without error, want one app", apps)
			}
			_, _, _ = Build(apps[0])
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("loading %d+%d bytes took %v", len(root), len(app), d)
		}
	})
}

// aliasBomb is a YAML document whose aliases would expand to 9^levels
// strings ("billion laughs"), under a key the loader rejects.
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("name: a\nbomb:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d [", i, i)
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}
