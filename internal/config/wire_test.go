package config_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/config"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// wireDir holds the YAML apps, the script that ran them on google-adk and
// what each ADK release declared to the model (golden/adk-<version>).
const wireDir = "testdata/wire"

// wireReleases are the ADK releases each behaviour must match.
var wireReleases = map[string]string{"1.x": "adk-1.39.1", "2.x": "adk-2.13.0"}

// wireGaps are the known differences from a release, by behaviour and tool:
// "field" when the schema is sent as parameters where ADK sends
// parametersJsonSchema, "schema" when its content differs too. Descriptions never differ.
var wireGaps = map[string]string{}

// TestToolDeclarationsMatchADK runs the apps of testdata/wire through the
// real Gemini adapter against a fake Gemini server and compares the
// function declarations on the wire with those google-adk sent for the same
// apps: descriptions byte for byte, schemas (names, types, enums, titles,
// required) exactly, in both behaviours.
func TestToolDeclarationsMatchADK(t *testing.T) {
	t.Parallel()
	for behavior, release := range wireReleases {
		t.Run(behavior, func(t *testing.T) {
			t.Parallel()
			apps, err := config.LoadAll(os.DirFS(filepath.Join(wireDir, "apps")))
			if err != nil {
				t.Fatal(err)
			}
			for _, app := range apps {
				t.Run(app.Name, func(t *testing.T) {
					app.Settings.ADKBehavior = behavior
					got := sentDeclarations(t, app)
					want := goldenDeclarations(t, filepath.Join(wireDir, "golden", release, app.Name+".json"))
					compareDeclarations(t, behavior, want, got)
				})
			}
		})
	}
}

// sentDeclarations runs app once and returns, per agent, the function
// declarations of its first model request as sent over HTTP.
func sentDeclarations(t *testing.T, app *config.AppConfig) map[string][]map[string]any {
	t.Helper()
	rt, _, err := config.Build(app)
	if err != nil {
		t.Fatal(err)
	}
	fake := fakegemini.New()
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	ctx := t.Context()
	provider, err := gemini.New(ctx, gemini.Config{APIKey: "test-key", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	store := memory.New()
	s, err := store.Create(ctx, sessions.CreateRequest{AppName: rt.Name, UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	runner := &runtime.Runner{App: rt, Sessions: store, Models: provider}
	msg := &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "hello"}}}
	for _, err := range runner.Run(ctx, runtime.RunRequest{UserID: "u", SessionID: s.Id, NewMessage: msg,
		RunConfig: runtime.RunConfig{MaxLLMCalls: 10}}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	out := map[string][]map[string]any{}
	for _, r := range fake.Requests() {
		var body struct {
			SystemInstruction struct{ Parts []struct{ Text string } }
			Tools             []struct{ FunctionDeclarations []map[string]any }
		}
		if err := r.Decode(&body); err != nil {
			t.Fatal(err)
		}
		var si strings.Builder
		for _, p := range body.SystemInstruction.Parts {
			si.WriteString(p.Text)
		}
		m := agentName.FindStringSubmatch(si.String())
		if m == nil {
			t.Fatalf("no agent name in the system instruction %q", si.String())
		}
		if _, seen := out[m[1]]; seen {
			continue
		}
		decls := []map[string]any{}
		for _, tool := range body.Tools {
			decls = append(decls, tool.FunctionDeclarations...)
		}
		out[m[1]] = decls
	}
	return out
}

var agentName = regexp.MustCompile(`Your internal name is "([^"]+)"`)

func goldenDeclarations(t *testing.T, file string) map[string][]map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string][]map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return out
}

func compareDeclarations(t *testing.T, behavior string, want, got map[string][]map[string]any) {
	t.Helper()
	if diff := cmp.Diff(keys(want), keys(got)); diff != "" {
		t.Fatalf("agents that called the model (-adk +agentsvc):\n%s", diff)
	}
	for agent, wantDecls := range want {
		gotDecls := got[agent]
		if len(gotDecls) != len(wantDecls) {
			t.Errorf("%s: %d declarations, want %d: %v", agent, len(gotDecls), len(wantDecls), gotDecls)
			continue
		}
		for i, w := range wantDecls {
			g := gotDecls[i]
			name, _ := w["name"].(string)
			if g["name"] != name {
				t.Errorf("%s: declaration %d is %v, want %s", agent, i, g["name"], name)
				continue
			}
			if g["description"] != w["description"] {
				t.Errorf("%s: %s description:\n got %q\nwant %q", agent, name, g["description"], w["description"])
			}
			gap := wireGaps[behavior+"/"+name]
			wantField, wantSchema := schemaOf(w)
			gotField, gotSchema := schemaOf(g)
			if gotField != wantField && gap == "" {
				t.Errorf("%s: %s schema sent as %q, want %q", agent, name, gotField, wantField)
			}
			diff := cmp.Diff(wantSchema, gotSchema)
			if diff != "" && gap != "schema" {
				t.Errorf("%s: %s schema (-adk +agentsvc):\n%s", agent, name, diff)
			}
			if gap == "field" && gotField == wantField || gap == "schema" && diff == "" {
				t.Errorf("%s: %s now matches ADK: remove %s/%s from wireGaps", agent, name, behavior, name)
			}
		}
	}
}

// schemaOf returns the field holding a declaration's parameter schema and
// the schema with type names in lower case: the typed form (parameters)
// spells them "STRING", the JSON schema form "string".
func schemaOf(decl map[string]any) (string, any) {
	for _, field := range []string{"parameters", "parametersJsonSchema"} {
		if s, ok := decl[field]; ok {
			return field, lowerTypes(s)
		}
	}
	return "", nil
}

func lowerTypes(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if s, ok := e.(string); ok && k == "type" {
				out[k] = strings.ToLower(s)
				continue
			}
			out[k] = lowerTypes(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = lowerTypes(e)
		}
		return out
	}
	return v
}

func keys(m map[string][]map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
