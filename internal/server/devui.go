package server

import (
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
)

// devUIPrefix is where ADK's web UI is served, as `adk web` serves it.
const devUIPrefix = "/dev-ui/"

// WithDevUI serves ADK's web UI (the built files of google-adk's
// cli/browser folder, index.html at the top) at /dev-ui/, with its runtime
// config pointing at this server, and redirects / there, as `adk web` does.
// The files are served to every caller; the API routes they call are
// authenticated as usual.
func WithDevUI(files fs.FS) HTTPOption {
	return httpOptionFunc(func(c *httpConfig) { c.devUI = files })
}

// CheckDevUI reports whether files hold the dev UI.
func CheckDevUI(files fs.FS) error {
	if _, err := fs.Stat(files, "index.html"); err != nil {
		return fmt.Errorf("no index.html: %w", err)
	}
	return nil
}

// devUIRoutes are the routes of the dev UI.
func devUIRoutes(files fs.FS) []handlerRoute {
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
	return []handlerRoute{
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

// handlerRoute is one REST route of the handler and what serves it.
type handlerRoute struct {
	method, path string
	handle       gwruntime.HandlerFunc
}

// openUIPath reports whether path is a file of the dev UI, served without
// authentication.
func openUIPath(path string) bool {
	return path == "/" || path == "/dev-ui" || strings.HasPrefix(path, devUIPrefix)
}
