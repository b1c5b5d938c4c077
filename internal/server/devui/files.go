package devui

import (
	"io/fs"
	"net/http"
	"strings"
)

// devUIPrefix is where ADK's web UI is served, as `adk web` serves it.
const devUIPrefix = "/dev-ui/"

// FileRoutes are the routes of the dev UI's files: the built files of
// google-adk's cli/browser folder (index.html at the top) at /dev-ui/,
// with its runtime config pointing at this server, and / redirected
// there, as `adk web` serves them.
func FileRoutes(files fs.FS) []Route {
	redirect := func(w http.ResponseWriter, r *http.Request, _ map[string]string) {
		http.Redirect(w, r, devUIPrefix, http.StatusTemporaryRedirect)
	}
	static := http.StripPrefix("/dev-ui", http.FileServerFS(files))
	serve := func(w http.ResponseWriter, r *http.Request, _ map[string]string) {
		p := strings.TrimPrefix(r.URL.Path, devUIPrefix)
		if p != "" {
			if st, err := fs.Stat(files, p); err != nil || st.IsDir() {
				// A path of the UI's own router (or none of its files):
				// the UI answers it.
				p = ""
			}
		}
		if p == "" {
			index, err := fs.ReadFile(files, "index.html")
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			_, _ = w.Write(index)
			return
		}
		static.ServeHTTP(w, r)
	}
	// The gateway tries the routes registered last first: the files
	// come first, so that the config routes win.
	return []Route{
		{"GET", "/dev-ui/{path=**}", serve},
		{"GET", "/", redirect},
		{"GET", "/dev-ui", redirect},
		{"GET", "/dev-ui/assets/config/runtime-config.json", func(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			// backendUrl empty: the API is this server, at the same origin.
			_, _ = w.Write([]byte(`{"backendUrl":"","telemetry":false}` + "\n"))
		}},
		{"GET", "/dev-ui/config", func(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"logo_text":null,"logo_image_url":null}` + "\n"))
		}},
	}
}

// OpenPath reports whether path is a file of the dev UI, served without
// authentication.
func OpenPath(path string) bool {
	return path == "/" || path == "/dev-ui" || strings.HasPrefix(path, devUIPrefix)
}
