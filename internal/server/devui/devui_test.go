package devui_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/workflow"
	"github.com/agentsvc/agentsvc/internal/server/devui"
	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

// fakeHost serves one app and records the error the routes fail with.
type fakeHost struct {
	app    devui.App
	failed error
}

func (h *fakeHost) App(name string) (devui.App, error) {
	if name != h.app.Name {
		return devui.App{}, &runtime.Error{Code: runtime.CodeNotFound, Reason: "APP_NOT_FOUND"}
	}
	return h.app, nil
}

func (h *fakeHost) CheckSessionKey(context.Context, string, string, string) error { return nil }

func (h *fakeHost) Session(context.Context, string, string, string) (*v1.Session, error) {
	return &v1.Session{}, nil
}

func (h *fakeHost) TraceUser(context.Context) (string, bool) { return "", true }

func (h *fakeHost) Fail(w http.ResponseWriter, _ *http.Request, err error) {
	h.failed = err
	w.WriteHeader(http.StatusTeapot)
}

// serve answers method and path with the route of routes whose pattern
// is pattern, its parameters params.
func serve(t *testing.T, routes []devui.Route, method, pattern, path string, params map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	for _, r := range routes {
		if r.Method == method && r.Path == pattern {
			w := httptest.NewRecorder()
			r.Handle(w, httptest.NewRequest(method, path, nil), params)
			return w
		}
	}
	t.Fatalf("no route %s %s", method, pattern)
	return nil
}

// TestRoutesFailThroughHost checks that the routes answer their errors
// through the host, as runtime errors with their reasons, and otherwise
// write JSON themselves.
func TestRoutesFailThroughHost(t *testing.T) {
	t.Parallel()
	root, err := workflow.NewSequential(workflow.Config{Name: "root"})
	if err != nil {
		t.Fatal(err)
	}
	app := devui.App{Name: "app", Root: root, Behavior: runtime.Behavior2x}
	image := "/dev/apps/{app_name}/build_graph_image"
	trace := "/dev/apps/{app_name}/debug/trace/{event_id}"
	tests := []struct {
		name       string
		routes     func(h devui.Host) []devui.Route
		pattern    string
		path       string
		params     map[string]string
		wantReason string // "" for success
		wantInBody string
	}{
		{"unknown app", devui.GraphRoutes, image, "/dev/apps/other/build_graph_image", map[string]string{"app_name": "other"}, "APP_NOT_FOUND", ""},
		{"unknown node", devui.GraphRoutes, image, "/dev/apps/app/build_graph_image?node=nope", map[string]string{"app_name": "app"}, "NODE_NOT_FOUND", ""},
		{"graph", devui.GraphRoutes, image, "/dev/apps/app/build_graph_image", map[string]string{"app_name": "app"}, "", `"dotSrc"`},
		{"unknown trace", func(h devui.Host) []devui.Route { return devui.TraceRoutes(h, tracebuffer.New(8)) }, trace,
			"/dev/apps/app/debug/trace/e1", map[string]string{"app_name": "app", "event_id": "e1"}, "TRACE_NOT_FOUND", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := &fakeHost{app: app}
			w := serve(t, tt.routes(h), "GET", tt.pattern, tt.path, tt.params)
			var rerr *runtime.Error
			switch {
			case tt.wantReason == "" && h.failed != nil:
				t.Fatalf("failed with %v", h.failed)
			case tt.wantReason == "":
				if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), tt.wantInBody) {
					t.Errorf("answered %d %q, want 200 with %s", w.Code, w.Body, tt.wantInBody)
				}
			case !errors.As(h.failed, &rerr) || rerr.Reason != tt.wantReason || rerr.Code != runtime.CodeNotFound:
				t.Errorf("failed with %v, want NOT_FOUND %s", h.failed, tt.wantReason)
			}
		})
	}
}
