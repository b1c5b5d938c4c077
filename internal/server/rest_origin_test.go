package server_test

import (
	"net/http"
	"strings"
	"testing"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// TestRESTCrossSiteRequests: a request from a browser page of another
// origin is 403 before anything runs (a text/plain POST to /run ran the
// agent), so is a Host that is not this service's (DNS rebinding); the
// loopback origins and the allowed ones are served, with CORS headers.
func TestRESTCrossSiteRequests(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t, server.WithAllowOrigins([]string{"https://ui.example.com", "http://ui.example.com:8443"}),
		server.WithListenAddr("127.0.0.1:8080"))
	s.session(t, "s1")
	before := s.snapshot(t, userID)
	for _, c := range []struct {
		name   string
		req    request
		reason string
	}{
		{"text/plain from another site", request{method: "POST", path: "/run", body: runBody("s1", "hi"),
			header: map[string]string{"Origin": "https://evil.example", "Content-Type": "text/plain"}}, "ORIGIN_NOT_ALLOWED"},
		{"JSON from another site", request{method: "POST", path: "/run_sse", body: runBody("s1", "hi"),
			header: map[string]string{"Origin": "https://evil.example"}}, "ORIGIN_NOT_ALLOWED"},
		{"PATCH from another site", request{method: "PATCH", path: "/apps/desk/users/u1/sessions/s1", body: `{"stateDelta": {"a": 1}}`,
			header: map[string]string{"Origin": "http://127.0.0.1.evil.example"}}, "ORIGIN_NOT_ALLOWED"},
		{"read from another site", request{method: "GET", path: "/apps/desk/users/u1/sessions/s1",
			header: map[string]string{"Origin": "http://evil.example:8080"}}, "ORIGIN_NOT_ALLOWED"},
		{"opaque origin", request{method: "DELETE", path: "/apps/desk/users/u1/sessions/s1",
			header: map[string]string{"Origin": "null"}}, "ORIGIN_NOT_ALLOWED"},
		{"allowed host on another port", request{method: "DELETE", path: "/apps/desk/users/u1/sessions/s1",
			header: map[string]string{"Origin": "https://ui.example.com:444"}}, "ORIGIN_NOT_ALLOWED"},
		{"preflight from another site", request{method: "OPTIONS", path: "/run",
			header: map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}}, "ORIGIN_NOT_ALLOWED"},
		{"rebound name", request{method: "POST", path: "/run", body: runBody("s1", "hi"),
			header: map[string]string{"Host": "evil.example:8080"}}, "HOST_NOT_ALLOWED"},
		{"rebound name, same origin", request{method: "DELETE", path: "/apps/desk/users/u1/sessions/s1",
			header: map[string]string{"Host": "evil.example", "Origin": "http://evil.example"}}, "HOST_NOT_ALLOWED"},
	} {
		got := s.do(t, c.req)
		if got.status != http.StatusForbidden || got.err.Code != 7 || got.err.reason() != c.reason {
			t.Errorf("%s: %d %+v, want 403 %s", c.name, got.status, got.err, c.reason)
		}
		if got.header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: CORS headers on a refusal", c.name)
		}
	}
	if after := s.snapshot(t, userID); after != before {
		t.Errorf("the store changed:\n%s\nwant\n%s", after, before)
	}
	if n := len(s.model.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}

	for _, c := range []struct {
		name   string
		header map[string]string
		cors   string
	}{
		{"no origin", nil, ""},
		{"loopback origin", map[string]string{"Origin": "http://localhost:3000"}, "http://localhost:3000"},
		{"loopback IPv6 origin", map[string]string{"Origin": "https://[::1]"}, "https://[::1]"},
		{"allowed origin", map[string]string{"Origin": "https://ui.example.com", "Host": "ui.example.com"}, "https://ui.example.com"},
		{"allowed origin with port", map[string]string{"Origin": "http://ui.example.com:8443"}, "http://ui.example.com:8443"},
		{"listen address", map[string]string{"Host": "127.0.0.1:8080"}, ""},
		{"localhost", map[string]string{"Host": "LOCALHOST"}, ""},
	} {
		s.model.Enqueue(et.Text("ok"))
		got := s.do(t, request{method: "POST", path: "/run", body: runBody("s1", "hi"), header: c.header})
		if got.status != 200 {
			t.Errorf("%s: %d %s", c.name, got.status, got.body)
		}
		if acao := got.header.Get("Access-Control-Allow-Origin"); acao != c.cors {
			t.Errorf("%s: Access-Control-Allow-Origin %q, want %q", c.name, acao, c.cors)
		}
	}

	// A preflight from an allowed origin is answered as ADK's CORS
	// middleware does.
	got := s.do(t, request{method: "OPTIONS", path: "/run", header: map[string]string{
		"Origin": "https://ui.example.com", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "content-type"}})
	if got.status != 200 || got.header.Get("Access-Control-Allow-Origin") != "https://ui.example.com" ||
		!strings.Contains(got.header.Get("Access-Control-Allow-Methods"), "POST") ||
		got.header.Get("Access-Control-Allow-Headers") != "content-type" ||
		got.header.Get("Access-Control-Allow-Credentials") != "true" {
		t.Errorf("preflight: %d %v", got.status, got.header)
	}
}

// TestRESTHostsOpenOffLoopback: listening on a non-loopback address, as
// behind a mesh, any Host is served; origins are still checked.
func TestRESTHostsOpenOffLoopback(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t, server.WithListenAddr("0.0.0.0:8080"))
	s.session(t, "s1")
	if got := s.do(t, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1", header: map[string]string{"Host": "agentsvc.mesh.internal"}}); got.status != 200 {
		t.Errorf("mesh host: %d %s", got.status, got.body)
	}
	if got := s.do(t, request{method: "GET", path: "/apps/desk/users/u1/sessions/s1", header: map[string]string{"Origin": "https://evil.example"}}); got.status != 403 {
		t.Errorf("foreign origin: %d %s", got.status, got.body)
	}
}

// TestBadAllowedOrigin: an allowed origin that is not scheme://host[:port]
// is refused when the handler is built.
func TestBadAllowedOrigin(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	for _, o := range []string{"ui.example.com", "https://ui.example.com/app", "https://"} {
		if _, err := s.srv.HTTPHandler(t.Context(), func() bool { return true }, server.WithAllowOrigins([]string{o})); err == nil {
			t.Errorf("allowed origin %q accepted", o)
		}
	}
}
