package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agentsvc/agentsvc/internal/auth/authtest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// TestMetricsRoute: GET /metrics needs no token, even with authentication
// on, but keeps the Host check against DNS rebinding; it is read-only.
func TestMetricsRoute(t *testing.T) {
	t.Parallel()
	a := newJWTAuthenticator(t, authtest.NewKey(t, "k1"))
	fx := newFixture(t, withConfig(func(c *server.Config) { c.Authenticator = a }))
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "# HELP x\n") })
	h, err := fx.srv.HTTPHandler(t.Context(), func() bool { return true }, server.WithMetrics(metrics))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, host string
		want               int
	}{
		{"scraped without a token", "GET", "127.0.0.1:8080", http.StatusOK},
		{"HEAD too", "HEAD", "localhost:8080", http.StatusOK},
		{"a rebound host name", "GET", "evil.example:8080", http.StatusForbidden},
		{"read-only", "POST", "127.0.0.1:8080", http.StatusMethodNotAllowed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequestWithContext(t.Context(), tc.method, "http://"+tc.host+"/metrics", nil)
			if tc.method == "POST" {
				req.Header.Set("Content-Type", "application/json")
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Errorf("%s /metrics with Host %s = %d %q, want %d", tc.method, tc.host, rec.Code, rec.Body.String(), tc.want)
			}
		})
	}
}
