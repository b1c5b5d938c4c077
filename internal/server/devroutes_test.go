package server_test

import (
	"encoding/json"
	"net/http"
	"runtime"
	"testing"

	"github.com/agentsvc/agentsvc/internal/server"
)

// TestVersionRoute: GET /version answers ADK's fields (version, language,
// language_version) plus the ADK version whose API agentsvc speaks, and
// other methods answer 405.
func TestVersionRoute(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	rep := s.do(t, request{method: "GET", path: "/version"})
	if rep.status != http.StatusOK {
		t.Fatalf("GET /version: %d %s", rep.status, rep.body)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(rep.body), &got); err != nil {
		t.Fatalf("body %s: %v", rep.body, err)
	}
	if got["version"] == "" || got["language"] != "go" || got["language_version"] != runtime.Version() || got["adk_version"] != server.ADKAPIVersion || len(got) != 4 {
		t.Errorf("body = %v", got)
	}
	if rep := s.do(t, request{method: "POST", path: "/version"}); rep.status != http.StatusMethodNotAllowed {
		t.Errorf("POST /version: %d, want 405", rep.status)
	}
}
