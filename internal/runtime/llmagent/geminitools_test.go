package llmagent_test

import (
	"errors"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// TestGeminiToolsInRequest: Gemini's own tools join the request as
// google-adk 1.39.1 puts them there (probed with a recording model): each
// a Tool of its own where the agent lists it, function declarations in the
// first Tool of declarations, the transfer's first; and ADK's errors for
// the model's version.
func TestGeminiToolsInRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		model  string
		tools  []runtime.Tool
		helper bool
		want   []string // per Tool: its kind, or the declared names
		err    string
	}{
		{"gemini-2.5-flash", []runtime.Tool{tools.GoogleSearch}, false, []string{"google_search"}, ""},
		{"gemini-2.5-flash", []runtime.Tool{tools.GoogleSearch, tools.ExitLoop}, true,
			[]string{"functions transfer_to_agent exit_loop", "google_search"}, ""},
		{"gemini-2.5-flash", []runtime.Tool{tools.URLContext, tools.ExitLoop}, false, []string{"url_context", "functions exit_loop"}, ""},
		{"gemini-1.5-flash", []runtime.Tool{tools.GoogleSearch}, false, []string{"google_search_retrieval"}, ""},
		{"gemini-1.5-flash", []runtime.Tool{tools.ExitLoop, tools.GoogleSearch}, false, nil,
			"Google search tool cannot be used with other tools in Gemini 1.x."},
		{"gemini-1.5-flash", []runtime.Tool{tools.URLContext}, false, nil, "Url context tool cannot be used in Gemini 1.x."},
		{"gpt-4o", []runtime.Tool{tools.GoogleSearch}, false, nil, "Google search tool is not supported for model gpt-4o"},
		{"gemini-2.5-flash", []runtime.Tool{tools.EnterpriseWebSearch, tools.GoogleMapsGrounding}, false,
			[]string{"enterprise_web_search", "google_maps"}, ""},
	}
	for _, tt := range tests {
		cfg := llmagent.Config{Name: "a", Model: tt.model, Tools: tt.tools}
		if tt.helper {
			cfg.SubAgents = []runtime.Agent{newAgent(t, llmagent.Config{Name: "helper", Model: tt.model, Description: "h"})}
		}
		h := et.New(t, newAgent(t, cfg))
		m := scripted.New(tt.model, et.Text("ok"))
		h.Models.Add(m)
		sid := h.NewSession(t, nil)
		_, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{})
		if tt.err != "" {
			var rerr *runtime.Error
			if !errors.As(err, &rerr) || rerr.Message != tt.err || rerr.Code != runtime.CodeFailedPrecondition {
				t.Errorf("%s %v: err = %v, want %q", tt.model, tt.want, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tl := range m.Requests()[0].GetConfig().GetTools() {
			got = append(got, toolKind(tl))
		}
		if !cmpEqual(tt.want, got) {
			t.Errorf("%s: tools = %q, want %q", tt.model, got, tt.want)
		}
	}
}

func toolKind(t *v1.Tool) string {
	switch {
	case len(t.FunctionDeclarations) > 0:
		s := "functions"
		for _, d := range t.FunctionDeclarations {
			s += " " + d.Name
		}
		return s
	case t.GoogleSearch != nil:
		return "google_search"
	case t.GoogleSearchRetrieval != nil:
		return "google_search_retrieval"
	case t.UrlContext != nil:
		return "url_context"
	case t.EnterpriseWebSearch != nil:
		return "enterprise_web_search"
	case t.GoogleMaps != nil:
		return "google_maps"
	}
	return "?"
}
