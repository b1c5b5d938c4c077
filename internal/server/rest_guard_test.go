package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// endlessBody is a request body of n bytes, `{"stateDelta": {"k": "aaa...`,
// made as it is read; it counts what was read.
type endlessBody struct {
	n, read int64
}

func (b *endlessBody) Read(p []byte) (int, error) {
	const head = `{"stateDelta": {"k": "`
	if b.read >= b.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), b.n-b.read)]
	k := 0
	if b.read < int64(len(head)) {
		k = copy(p, head[b.read:])
	}
	for i := k; i < len(p); i += copy(p[i:], filler) {
	}
	b.read += int64(len(p))
	return len(p), nil
}

var filler = []byte(strings.Repeat("a", 4096))

// serveEndless serves a JSON request whose body is 50 MB of filler, its
// length declared or not (chunked), and returns the answer and the body.
func serveEndless(t *testing.T, h http.Handler, method, path, host string, declared bool) (*httptest.ResponseRecorder, *endlessBody) {
	t.Helper()
	body := &endlessBody{n: 50 << 20}
	req := httptest.NewRequestWithContext(t.Context(), method, path, body)
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = -1
	if declared {
		req.ContentLength = body.n
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec, body
}

// TestRESTBodyLimit: every route reads at most limit+1 bytes of a body and
// answers 413 RESOURCE_EXHAUSTED with the gateway's body and ErrorInfo; a
// declared Content-Length over the limit is answered before any byte is
// read; nothing is stored. A body of exactly the limit is served.
func TestRESTBodyLimit(t *testing.T) {
	t.Parallel()
	const limit = 1 << 20
	s := newRESTStack(t, server.WithMaxRequestBytes(limit))
	h := s.handler(t, server.WithMaxRequestBytes(limit))
	s.session(t, "s1")
	before := s.snapshot(t, userID)
	for _, c := range []struct {
		method, path string
		declared     bool
	}{
		{"PATCH", "/apps/desk/users/u1/sessions/s1", false},
		{"PATCH", "/apps/desk/users/u1/sessions/s1", true},
		{"POST", "/apps/desk/users/u1/sessions", false},
		{"POST", "/apps/desk/users/u1/sessions/s1/rewind", false},
		{"POST", "/run", false},
		{"POST", "/run_sse", true},
		{"POST", "/run_sse", false},
		{"DELETE", "/apps/desk/users/u1/sessions/s1", true},
		{"POST", "/nowhere", true},
	} {
		rec, body := serveEndless(t, h, c.method, c.path, "127.0.0.1", c.declared)
		var got restError
		_ = json.Unmarshal(rec.Body.Bytes(), &got)
		if rec.Code != http.StatusRequestEntityTooLarge || got.Code != 8 || got.reason() != "REQUEST_TOO_LARGE" {
			t.Errorf("%s %s: %d %s, want 413 RESOURCE_EXHAUSTED", c.method, c.path, rec.Code, rec.Body)
		}
		if c.declared && body.read != 0 || body.read > limit+1 {
			t.Errorf("%s %s (declared length %v): read %d bytes of the body, limit %d", c.method, c.path, c.declared, body.read, limit)
		}
	}
	// The real server: a body of exactly the limit is served, one byte
	// more is not.
	delta := `{"stateDelta": {"city": "Rome"}}`
	exact := delta + strings.Repeat(" ", limit-len(delta))
	if got := s.do(t, request{method: "PATCH", path: "/apps/desk/users/u1/sessions/s1", body: exact + " "}); got.status != 413 || got.err.Code != 8 {
		t.Errorf("limit+1 bytes: %d %+v", got.status, got.err)
	}
	if after := s.snapshot(t, userID); after != before {
		t.Errorf("the store changed:\n%s\nwant\n%s", after, before)
	}
	if got := s.do(t, request{method: "PATCH", path: "/apps/desk/users/u1/sessions/s1", body: exact}); got.status != 200 {
		t.Errorf("limit bytes: %d %s", got.status, got.body)
	}
	if n := len(s.model.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}

// TestRESTBodyLimitDefault: the default limit is 16 MiB; a 50 MB PATCH
// is refused on its Content-Length, unread, and a chunked one after 16 MiB.
func TestRESTBodyLimitDefault(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	h := s.handler(t)
	s.session(t, "s1")
	before := s.snapshot(t, userID)
	for _, c := range []struct {
		method, path string
		declared     bool
	}{
		{"PATCH", "/apps/desk/users/u1/sessions/s1", true},
		{"POST", "/run", false},
	} {
		rec, body := serveEndless(t, h, c.method, c.path, "localhost:8080", c.declared)
		if rec.Code != 413 || c.declared && body.read != 0 || body.read > server.DefaultMaxRequestBytes+1 {
			t.Errorf("%s %s: %d after reading %d bytes", c.method, c.path, rec.Code, body.read)
		}
	}
	if after := s.snapshot(t, userID); after != before {
		t.Errorf("the store changed:\n%s\nwant\n%s", after, before)
	}
}

// TestRESTContentType: a request that changes state with a body not sent
// as JSON is 415, before anything runs: a browser sends text/plain and
// forms across sites without asking.
func TestRESTContentType(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	s.session(t, "s1")
	before := s.snapshot(t, userID)
	for _, c := range []struct {
		method, path, ct, body string
	}{
		{"POST", "/run", "text/plain", runBody("s1", "hi")},
		{"POST", "/run_sse", "text/plain;charset=UTF-8", runBody("s1", "hi")},
		{"POST", "/run", "", runBody("s1", "hi")},
		{"POST", "/apps/desk/users/u1/sessions", "application/x-www-form-urlencoded", "sessionId=x"},
		{"POST", "/apps/desk/users/u1/sessions", "multipart/form-data; boundary=x", "--x--"},
		{"PATCH", "/apps/desk/users/u1/sessions/s1", "text/plain", `{"stateDelta": {"city": "Rome"}}`},
		{"DELETE", "/apps/desk/users/u1/sessions/s1", "text/plain", ""},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), c.method, s.http.URL+c.path, strings.NewReader(c.body))
		if c.body == "" {
			req.Body = nil
		}
		if c.ct != "" {
			req.Header.Set("Content-Type", c.ct)
		}
		resp, err := s.http.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got restError
		_ = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType || got.reason() != "UNSUPPORTED_MEDIA_TYPE" {
			t.Errorf("%s %s as %q: %d %+v, want 415", c.method, c.path, c.ct, resp.StatusCode, got)
		}
	}
	if after := s.snapshot(t, userID); after != before {
		t.Errorf("the store changed:\n%s\nwant\n%s", after, before)
	}
	// JSON with parameters, and no body at all, are fine.
	s.model.Enqueue(et.Text("ok"))
	req, _ := http.NewRequestWithContext(t.Context(), "POST", s.http.URL+"/run", strings.NewReader(runBody("s1", "hi")))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if resp, err := s.http.Client().Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("JSON with charset: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if got := s.do(t, request{method: "POST", path: "/apps/desk/users/u1/sessions"}); got.status != 200 {
		t.Errorf("create without body: %d %s", got.status, got.body)
	}
	if got := s.do(t, request{method: "DELETE", path: "/apps/desk/users/u1/sessions/s1"}); got.status != 200 {
		t.Errorf("delete without body: %d %s", got.status, got.body)
	}
}
