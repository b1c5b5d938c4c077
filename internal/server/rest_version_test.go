package server_test

import (
	"encoding/json"
	"net/http"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	if got["version"] == "" || got["language"] != "go" || got["language_version"] != runtime.Version() || got["adk_version"] != "2.13.0" || len(got) != 4 {
		t.Errorf("body = %v", got)
	}
	if rep := s.do(t, request{method: "POST", path: "/version"}); rep.status != http.StatusMethodNotAllowed {
		t.Errorf("POST /version: %d, want 405", rep.status)
	}
}

// TestAppInfoRoutes: GET /list-apps (plain and detailed) and GET
// /apps/{app}/app-info answer ADK 2.13's shapes.
func TestAppInfoRoutes(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	decode := func(rep reply) any {
		t.Helper()
		var v any
		if err := json.Unmarshal([]byte(rep.body), &v); err != nil {
			t.Fatalf("body %s: %v", rep.body, err)
		}
		return v
	}
	tests := []struct {
		name   string
		path   string
		status int
		want   string // JSON, compared as values
	}{
		{"names", "/list-apps", 200, `["desk"]`},
		{"not detailed", "/list-apps?detailed=false", 200, `["desk"]`},
		{"detailed", "/list-apps?detailed=true", 200,
			`{"apps":[{"name":"desk","rootAgentName":"desk_agent","description":"","language":"yaml","isComputerUse":false}]}`},
		{"app info", "/apps/desk/app-info", 200, `{"name":"desk","rootAgentName":"desk_agent","description":"","language":"yaml",
			"isComputerUse":false,"agents":{
			"desk_agent":{"name":"desk_agent","description":"","instruction":"","sub_agents":["helper"],"tools":[
				{"functionDeclarations":[{"name":"get_weather"}]},{"functionDeclarations":[{"name":"approve"}]}]},
			"helper":{"name":"helper","description":"","instruction":"","sub_agents":[],"tools":[
				{"functionDeclarations":[{"name":"send_mail"}]}]}}}`},
		{"telemetry consent", "/config/telemetry", 200, `{"telemetry":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := s.do(t, request{method: "GET", path: tt.path})
			if rep.status != tt.status {
				t.Fatalf("GET %s: %d %s", tt.path, rep.status, rep.body)
			}
			var want any
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, decode(rep)); diff != "" {
				t.Errorf("GET %s (-want +got):\n%s", tt.path, diff)
			}
		})
	}
	for _, tt := range []struct {
		name, method, path, reason string
		status                     int
	}{
		{"unknown app", "GET", "/apps/nope/app-info", "APP_NOT_FOUND", 404},
		{"bad detailed", "GET", "/list-apps?detailed=maybe", "INVALID_ARGUMENT", 400},
		{"eval route", "POST", "/dev/apps/desk/eval_sets/s1/run_eval", "NOT_SERVED", 501},
		{"builder route", "POST", "/dev/apps/desk/builder/save", "NOT_SERVED", 501},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := s.do(t, request{method: tt.method, path: tt.path})
			if rep.status != tt.status || rep.err.reason() != tt.reason {
				t.Fatalf("%s %s: %d %s, want %d %s", tt.method, tt.path, rep.status, rep.body, tt.status, tt.reason)
			}
		})
	}
}
