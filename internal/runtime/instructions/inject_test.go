package instructions_test

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/instructions"
)

func testState(t testing.TB) instructions.StateFunc {
	t.Helper()
	s, err := structpb.NewStruct(map[string]any{
		"name":      "Ada",
		"n":         3,
		"f":         1.5,
		"none":      nil,
		"user:tier": "gold",
		"app:x":     true,
		"temp:t":    []any{1, "a"},
		"d":         map[string]any{"k": "v"},
		"x":         "X",
	})
	if err != nil {
		t.Fatal(err)
	}
	return func(key string) (*structpb.Value, bool) {
		v, ok := s.GetFields()[key]
		return v, ok
	}
}

// artifactStub serves artifacts from a map and records nothing.
type artifactStub map[string]string

func (a artifactStub) LoadArtifactText(_ context.Context, name string) (string, bool, error) {
	text, ok := a[name]
	return text, ok, nil
}

type failingLoader struct{ err error }

func (f failingLoader) LoadArtifactText(context.Context, string) (string, bool, error) {
	return "", false, f.err
}

// The expected outputs match ADK's inject_session_state run on the same
// templates and state.
func TestBehaviorI1StateInjection(t *testing.T) {
	t.Parallel()
	state := testState(t)
	tests := []struct {
		template, want string
	}{
		{"no braces at all", "no braces at all"},
		{"Hi {name}!", "Hi Ada!"},
		{"{{name}}", "Ada"},
		{"{{name}", "Ada"},
		{"{name}}}", "Ada"},
		{"{ name }", "Ada"},
		{"{\tname\n}", "Ada"},
		{"{\x1cname}", "Ada"},
		{"{name?}", "Ada"},
		{"{missing?}", ""},
		{"{user:tier} {app:x} {temp:t}", "gold True [1, 'a']"},
		{"{n} {f} [{none}] {d}", "3 1.5 [] {'k': 'v'}"},
		{"{name}{x}", "AdaX"},
		{"{ {name} }", "{ Ada }"},
		{"{x{name}", "{xAda"},
		{"a}b{", "a}b{"},
		{`json {"k": 1}`, `json {"k": 1}`},
	}
	for _, tc := range tests {
		t.Run(tc.template, func(t *testing.T) {
			t.Parallel()
			got, err := instructions.Inject(t.Context(), tc.template, state, nil)
			if err != nil {
				t.Fatalf("Inject(%q) error: %v", tc.template, err)
			}
			if got != tc.want {
				t.Errorf("Inject(%q) = %q, want %q", tc.template, got, tc.want)
			}
		})
	}
}

func TestBehaviorI1InvalidNamesStayVerbatim(t *testing.T) {
	t.Parallel()
	for _, template := range []string{
		"{a-b}", "{a:key}", "{ 1x }", "{}", "{?}", "{ name ? }", "{name??}",
		"{user:}", "{app:a:b}", "{{a-b}}", "{user input}", "{2024-01-01}",
	} {
		t.Run(template, func(t *testing.T) {
			t.Parallel()
			got, err := instructions.Inject(t.Context(), template, testState(t), nil)
			if err != nil {
				t.Fatalf("Inject(%q) error: %v", template, err)
			}
			if got != template {
				t.Errorf("Inject(%q) = %q, want it verbatim", template, got)
			}
		})
	}
}

func TestBehaviorI1MissingVariable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		template string
		state    instructions.StateFunc
		want     string
	}{
		{"Hello {missing}.", testState(t), "Context variable not found: `missing`."},
		{"{ user:plan }", testState(t), "Context variable not found: `user:plan`."},
		{"{name}", nil, "Context variable not found: `name`."},
	}
	for _, tc := range tests {
		t.Run(tc.template, func(t *testing.T) {
			t.Parallel()
			got, err := instructions.Inject(t.Context(), tc.template, tc.state, nil)
			if err == nil {
				t.Fatalf("Inject(%q) = %q, want an error", tc.template, got)
			}
			if err.Error() != tc.want {
				t.Errorf("error = %q, want %q", err.Error(), tc.want)
			}
			if !errors.Is(err, instructions.ErrContextVariableNotFound) {
				t.Errorf("errors.Is(%v, ErrContextVariableNotFound) = false", err)
			}
			var nf *instructions.NotFoundError
			if !errors.As(err, &nf) || nf.Artifact {
				t.Errorf("error %#v is not a state NotFoundError", err)
			}
		})
	}
}

func TestBehaviorI1NullValue(t *testing.T) {
	t.Parallel()
	state := func(key string) (*structpb.Value, bool) {
		switch key {
		case "null":
			return structpb.NewNullValue(), true
		case "nilptr":
			return nil, true
		}
		return nil, false
	}
	got, err := instructions.Inject(t.Context(), "[{null}][{nilptr}]", state, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != "[][]" {
		t.Errorf("Inject() = %q, want %q", got, "[][]")
	}
}

func TestBehaviorI1Artifacts(t *testing.T) {
	t.Parallel()
	loader := artifactStub{"f": "file text", "f ": "spaced"}
	tests := []struct {
		template  string
		artifacts instructions.ArtifactLoader
		want      string
		wantErr   string
		is        error
	}{
		{template: "A: {artifact.f}", artifacts: loader, want: "A: file text"},
		{template: "A: {artifact.f?}", artifacts: loader, want: "A: file text"},
		{template: "A: {artifact.g?}.", artifacts: loader, want: "A: ."},
		{template: "{ artifact.f ? }", artifacts: loader, want: "spaced"},
		{template: "{artifact.g}", artifacts: loader, wantErr: "Artifact g not found.", is: instructions.ErrArtifactNotFound},
		{template: "{artifact.f}", wantErr: "Artifact service is not initialized.", is: instructions.ErrNoArtifactService},
		{template: "{artifact.f?}", wantErr: "Artifact service is not initialized.", is: instructions.ErrNoArtifactService},
	}
	for _, tc := range tests {
		t.Run(tc.template, func(t *testing.T) {
			t.Parallel()
			got, err := instructions.Inject(t.Context(), tc.template, testState(t), tc.artifacts)
			if tc.wantErr == "" {
				if err != nil || got != tc.want {
					t.Errorf("Inject(%q) = %q, %v; want %q", tc.template, got, err, tc.want)
				}
				return
			}
			if err == nil || err.Error() != tc.wantErr {
				t.Fatalf("Inject(%q) error = %v, want %q", tc.template, err, tc.wantErr)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.is)
			}
		})
	}
}

func TestInjectLoaderError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	_, err := instructions.Inject(t.Context(), "{artifact.f}", nil, failingLoader{boom})
	if !errors.Is(err, boom) {
		t.Errorf("error = %v, want it to wrap %v", err, boom)
	}
}

// Not parallel: testing.AllocsPerRun refuses to run in parallel tests.
func TestInjectDoesNotAllocateWithoutReplacements(t *testing.T) {
	ctx := t.Context()
	state := testState(t)
	for _, template := range []string{"static instruction, no braces", `verbatim {a-b} and {"k": 1}`} {
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := instructions.Inject(ctx, template, state, nil); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("Inject(%q) made %v allocations, want 0", template, allocs)
		}
	}
}

func BenchmarkInject(b *testing.B) {
	ctx := b.Context()
	state := testState(b)
	for _, bc := range []struct{ name, template string }{
		{"static", "You are a helpful assistant. Answer briefly and cite sources."},
		{"vars", "You are helping {name} (tier {user:tier}). Topic: {topic?}. Numbers: {n}, {f}."},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := instructions.Inject(ctx, bc.template, state, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
