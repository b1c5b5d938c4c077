package instructions_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/instructions"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// FuzzInject fills a fuzzed template from a fuzzed state (a JSON object)
// and artifacts that all hold one fuzzed text (no artifact service when it
// is empty). Invariants: no panic; a
// template without '{' comes back as is; expansion is bounded: the output
// is no longer than the template plus, for each '}', the longest value a
// placeholder can insert.
func FuzzInject(f *testing.F) {
	const state = `{"name": "Ada", "n": 3, "f": 1.5, "none": null, "user:tier": "gold", "app:x": true,
		"temp:t": [1, "a"], "d": {"k": "v"}, "x": "X"}`
	for _, seed := range []struct{ template, state, artifact string }{
		{"Hi {name}!", state, ""},
		{"{{name}} {name}} {{name} { name } {\tname\n} {name?} {missing?}", state, ""},
		{"{user:tier} {app:x} {temp:t} {n} {f} [{none}] {d}", state, ""},
		{"{ {name} } {x{name} a}b{ json {\"k\": 1}", state, ""},
		{"{a-b} {a:key} { 1x } {} {?} {name??} {user:} {app:a:b} {2024-01-01}", state, ""},
		{"Hello {missing}.", state, ""},
		{"{artifact.f} {artifact.g?} {artifact.f}", "{}", "file text {name}"},
		{"{name}{name}{name}{name}", `{"name": "` + strings.Repeat("long ", 20) + `"}`, ""},
		{"no braces at all", "", ""},
	} {
		f.Add(seed.template, []byte(seed.state), seed.artifact)
	}
	f.Fuzz(func(t *testing.T, template string, stateJSON []byte, artifact string) {
		st := &structpb.Struct{}
		if protojson.Unmarshal(stateJSON, st) != nil {
			st = &structpb.Struct{}
		}
		longest := len(artifact)
		for _, v := range st.GetFields() {
			longest = max(longest, len(pyfmt.Str(v)))
		}
		state := func(key string) (*structpb.Value, bool) {
			v, ok := st.GetFields()[key]
			return v, ok
		}
		var artifacts instructions.ArtifactLoader // none: {artifact.x} fails
		if artifact != "" {
			artifacts = everyArtifact(artifact)
		}
		out, err := instructions.Inject(t.Context(), template, state, artifacts)
		if err != nil {
			return
		}
		if !strings.Contains(template, "{") && out != template {
			t.Fatalf("Inject(%q) = %q, want it as is", template, out)
		}
		if bound := len(template) + strings.Count(template, "}")*longest; len(out) > bound {
			t.Fatalf("Inject(%q) is %d bytes, more than the bound %d", template, len(out), bound)
		}
	})
}

// everyArtifact holds its text under every name but "missing".
type everyArtifact string

func (a everyArtifact) LoadArtifactText(_ context.Context, name string) (string, bool, error) {
	if name == "missing" {
		return "", false, nil
	}
	return string(a), true, nil
}
