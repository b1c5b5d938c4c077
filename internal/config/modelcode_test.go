package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/models/registry"
)

const liteLlmAgent = `name: a
model_code:
  name: google.adk.models.lite_llm.LiteLlm
  args:
    - name: model
      value: openai/gpt-4o-mini
    - name: api_base
      value: http://localhost:8000/v1
    - name: temperature
      value: 0.2
    - name: extra_headers
      value: {X-Team: agents}
    - name: num_retries
      value: 1
`

func TestModelCode(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"s/root_agent.yaml": {Data: []byte(liteLlmAgent + "sub_agents:\n  - config_path: b.yaml\n  - config_path: c.yaml\n")},
		"s/b.yaml":          {Data: []byte("name: b\nmodel_code:\n  name: google.adk.models.anthropic_llm.Claude\n  args:\n    - name: model\n      value: claude-sonnet-4-5@20250929\n")},
		"s/c.yaml":          {Data: []byte("name: c\nmodel_code:\n  name: google.adk.models.lite_llm.LiteLlm\n  args:\n    - name: model\n      value: openai/gpt-4o-mini\n")},
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	specs := apps[0].Models()
	retries := 1
	want := map[string]registry.Spec{
		"openai/gpt-4o-mini": {Kind: registry.KindOpenAI, Class: registry.ClassLiteLlm, Name: "openai/gpt-4o-mini", Provider: "openai",
			Model: "gpt-4o-mini", Source: "s/root_agent.yaml: model_code", Args: registry.Args{APIBase: "http://localhost:8000/v1",
				Headers: map[string]string{"X-Team": "agents"}, NumRetries: &retries, Body: map[string]any{"temperature": 0.2}}},
		"claude-sonnet-4-5@20250929": {Kind: registry.KindAnthropic, Class: registry.ClassClaude, Name: "claude-sonnet-4-5@20250929",
			Model: "claude-sonnet-4-5@20250929", Source: "s/b.yaml: model_code"},
		"openai/gpt-4o-mini#2": {Kind: registry.KindOpenAI, Class: registry.ClassLiteLlm, Name: "openai/gpt-4o-mini", Provider: "openai",
			Model: "gpt-4o-mini", Source: "s/c.yaml: model_code"},
	}
	if d := cmp.Diff(want, specs); d != "" {
		t.Fatalf("specs (-want +got):\n%s", d)
	}
	if apps[0].UsesGemini() {
		t.Error("UsesGemini = true for an app without Gemini models")
	}
	if _, info, err := Build(apps[0]); err != nil || info.RootAgent.Model != "openai/gpt-4o-mini" {
		t.Fatalf("Build: model %q, %v", info.GetRootAgent().GetModel(), err)
	}
}

func TestModelByPattern(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		model      string
		kind       registry.Kind
		usesGemini bool
	}{
		{"gemini-2.5-flash", registry.KindGemini, true},
		{"claude-3-5-sonnet-v2@20241022", registry.KindAnthropic, false},
		{"openai/gpt-4o", registry.KindOpenAI, false},
		{"groq/llama3-70b-8192", registry.KindOpenAI, false},
		{"some-tuned-model", registry.KindGemini, true},
	} {
		apps, err := LoadAll(fstest.MapFS{"s/root_agent.yaml": {Data: []byte("name: a\nmodel: " + tc.model + "\n")}})
		if err != nil {
			t.Fatalf("%s: %v", tc.model, err)
		}
		if got := apps[0].UsesGemini(); got != tc.usesGemini {
			t.Errorf("%s: UsesGemini = %v, want %v", tc.model, got, tc.usesGemini)
		}
		if spec, ok := apps[0].Models()[tc.model]; ok != !tc.usesGemini || ok && spec.Kind != tc.kind {
			t.Errorf("%s: spec %+v (%v), want kind %s", tc.model, spec, ok, tc.kind)
		}
	}
}

func TestModelCodeErrors(t *testing.T) {
	t.Parallel()
	code := func(class string, args ...string) string {
		return "name: a\nmodel_code:\n  name: " + class + "\n  args:\n" + strings.Join(args, "")
	}
	arg := func(name, value string) string { return "    - name: " + name + "\n      value: " + value + "\n" }
	const lite = "google.adk.models.lite_llm.LiteLlm"
	for _, tc := range []struct{ yaml, want string }{
		{code("my.models.Custom", arg("model", "x")), `s/root_agent.yaml: model_code.name: "my.models.Custom" is not a model class agentsvc serves`},
		{code(lite, arg("model", "bedrock/claude")), `s/root_agent.yaml: model_code.args[0].value: model "bedrock/claude": provider "bedrock" is not supported`},
		{code(lite, arg("api_base", "x")), "s/root_agent.yaml: model_code.args: model is required"},
		{code(lite, arg("model", "openai/gpt-4o"), arg("temperature", "3")), "s/root_agent.yaml: model_code.args[1].value: temperature: must be between 0 and 2, got 3"},
		{code(lite, arg("model", "openai/gpt-4o"), arg("api_base", "ftp://x")), `model_code.args[1].value: api_base: "ftp://x" is not an http or https URL`},
		{code(lite, arg("model", "openai/gpt-4o"), arg("stream", "true")), "model_code.args[1].value: stream: not an argument agentsvc passes"},
		{code(lite, arg("model", "openai/gpt-4o"), arg("extra_headers", `{"A": "b\n"}`)), `model_code.args[1].value: extra_headers: "A": not a valid header`},
		{code(lite, arg("model", "openai/gpt-4o"), arg("num_retries", "99")), "num_retries: must be between 0 and 10, got 99"},
		{code("google.adk.models.anthropic_llm.Claude", arg("model", "claude-x"), arg("api_base", "http://x")), `model_code.args[1].name: "api_base" is not an argument of Claude`},
		{"name: a\nmodel: m\n" + strings.TrimPrefix(code(lite, arg("model", "openai/x")), "name: a\n"), "model_code: only one of `model` or `model_code` should be set"},
		{"name: a\nmodel: mistral\n", ""},
		{"name: a\nmodel: vertex_ai/claude-3\n", `s/root_agent.yaml: model: model "vertex_ai/claude-3": provider "vertex_ai" is not supported`},
		{"name: a\nmodel_code:\n  name: " + lite + "\n  kwargs: {}\n", "model_code.kwargs: unknown field"},
	} {
		_, err := LoadAll(fstest.MapFS{"s/root_agent.yaml": {Data: []byte(tc.yaml)}})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.yaml, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s:\nerr = %v\nwant %q", tc.yaml, err, tc.want)
		}
	}
}
