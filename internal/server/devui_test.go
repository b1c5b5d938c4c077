package server_test

import (
	"net/http"
	"testing"
	"testing/fstest"

	"github.com/agentsvc/agentsvc/internal/server"
)

// TestDevUI: with WithDevUI, ADK's web UI is served at /dev-ui/ as `adk web`
// serves it: / and /dev-ui redirect there, files are served as they are,
// the UI's own paths get index.html, and the runtime config points at this
// server; nothing outside the folder is reachable.
func TestDevUI(t *testing.T) {
	t.Parallel()
	files := fstest.MapFS{
		"index.html":                        {Data: []byte("<html>adk</html>")},
		"main-X.js":                         {Data: []byte("console.log(1)")},
		"assets/config/runtime-config.json": {Data: []byte(`{"backendUrl":"http://elsewhere"}`)},
	}
	if err := server.CheckDevUI(files); err != nil {
		t.Fatal(err)
	}
	if err := server.CheckDevUI(fstest.MapFS{"x.js": {}}); err == nil {
		t.Error("CheckDevUI accepted a folder without index.html")
	}
	s := newRESTStack(t, server.WithDevUI(files))
	tests := []struct {
		path   string
		status int
		body   string
		ctype  string
	}{
		{"/", 200, "<html>adk</html>", "text/html; charset=utf-8"},
		{"/dev-ui", 200, "<html>adk</html>", "text/html; charset=utf-8"},
		{"/dev-ui/", 200, "<html>adk</html>", "text/html; charset=utf-8"},
		{"/dev-ui/main-X.js", 200, "console.log(1)", "text/javascript; charset=utf-8"},
		{"/dev-ui/some/ui/route", 200, "<html>adk</html>", "text/html; charset=utf-8"},
		{"/dev-ui/assets/config/runtime-config.json", 200, `{"backendUrl":"","telemetry":false}` + "\n", "application/json"},
		{"/dev-ui/../rest_test.go", 200, "<html>adk</html>", "text/html; charset=utf-8"},
		{"/dev-ui/%2e%2e/rest_test.go", 200, "<html>adk</html>", "text/html; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			rep := s.do(t, request{method: "GET", path: tt.path})
			if rep.status != tt.status || rep.body != tt.body || rep.header.Get("Content-Type") != tt.ctype {
				t.Errorf("GET %s: %d %q (%s), want %d %q (%s)", tt.path, rep.status, rep.body,
					rep.header.Get("Content-Type"), tt.status, tt.body, tt.ctype)
			}
		})
	}
	if rep := s.do(t, request{method: "POST", path: "/dev-ui/main-X.js", body: "{}"}); rep.status != http.StatusMethodNotAllowed && rep.status != http.StatusNotFound {
		t.Errorf("POST /dev-ui/main-X.js: %d", rep.status)
	}
	if rep := newRESTStack(t).do(t, request{method: "GET", path: "/dev-ui/"}); rep.status != http.StatusNotFound {
		t.Errorf("without the UI, GET /dev-ui/: %d, want 404", rep.status)
	}
}
