package server

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// TestSlowBodyTimesOut: a client that sends its headers and then trickles
// or stalls its body gets 408 once the body read timeout passes, instead of
// holding the connection forever.
func TestSlowBodyTimesOut(t *testing.T) {
	t.Parallel()
	srv := New(Config{Sessions: memory.New()})
	h, err := srv.HTTPHandler(t.Context(), func() bool { return true }, WithBodyReadTimeout(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = io.WriteString(conn, "PATCH /apps/desk/users/u/sessions/s HTTP/1.1\r\nHost: 127.0.0.1\r\n"+
		"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"stateDelta\": ")
	// Without the body timeout the server would wait for the body forever;
	// the deadline only keeps a broken test from hanging.
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Errorf("status %d, want 408", resp.StatusCode)
	}
}

// TestBodyTimeoutSparesLongResponses: the body read timeout bounds the
// body only: a response that takes longer (a long /run_sse) is neither cut
// nor cancelled.
func TestBodyTimeoutSparesLongResponses(t *testing.T) {
	t.Parallel()
	const timeout = 100 * time.Millisecond
	origins, err := newOriginPolicy(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	g := &guard{
		cfg:     httpConfig{maxRequestBytes: DefaultMaxRequestBytes, bodyReadTimeout: timeout},
		origins: origins,
		fail:    func(w http.ResponseWriter, _ *http.Request, err error) { http.Error(w, err.Error(), 500) },
		next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, err := io.ReadAll(r.Body); err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			for range 4 {
				select {
				case <-r.Context().Done():
					return
				case <-time.After(timeout):
				}
				_, _ = io.WriteString(w, "data: tick\n\n")
				w.(http.Flusher).Flush()
			}
			_, _ = io.WriteString(w, "data: done\n\n")
		}),
	}
	ts := httptest.NewServer(g)
	defer ts.Close()
	resp, err := ts.Client().Post(ts.URL+"/run_sse", "application/json", strings.NewReader(`{"appName": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || !strings.HasSuffix(string(b), "data: done\n\n") {
		t.Errorf("response cut: %q, %v", b, err)
	}
}

// BenchmarkGuard is what the guard adds to every REST request: host,
// origin and content type checks and the body's bounds.
func BenchmarkGuard(b *testing.B) {
	origins, err := newOriginPolicy([]string{"https://ui.example.com"}, "127.0.0.1:8080")
	if err != nil {
		b.Fatal(err)
	}
	g := &guard{
		cfg:     httpConfig{maxRequestBytes: DefaultMaxRequestBytes, bodyReadTimeout: DefaultBodyReadTimeout},
		origins: origins,
		fail:    func(w http.ResponseWriter, _ *http.Request, err error) { b.Fatal(err) },
		next:    http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}),
	}
	const body = `{"appName": "desk", "userId": "u1", "sessionId": "s1"}`
	for _, h := range []struct {
		name string
		h    http.Handler
	}{{"bare", g.next}, {"guarded", g}} {
		b.Run(h.name, func(b *testing.B) {
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest("POST", "http://127.0.0.1:8080/run", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Origin", "https://ui.example.com")
				h.h.ServeHTTP(w, r)
			}
		})
	}
}
