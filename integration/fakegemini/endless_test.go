package fakegemini_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

const generateBody = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`

// post sends a model request and returns the response, or the error of a
// request whose context ended first.
func (c *client) post(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, strings.NewReader(generateBody))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return c.http.Do(req)
}

func TestHangAnswersNothingUntilTheClientLeaves(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"/v1beta/models/m:generateContent", "/v1beta/models/m:streamGenerateContent?alt=sse"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			_, c := newServer(t)
			// Scripted through the control API, as a test in another process.
			if status, body := c.do(t.Context(), "POST", "/_fake/script", `{"responses":[{"hang":true}]}`); status != 200 {
				t.Fatalf("script: %d %s", status, body)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
			defer cancel()
			resp, err := c.post(ctx, path)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("answered %d, want no answer", resp.StatusCode)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error %v, want the client's deadline", err)
			}
			// The hang was used once: the next request is answered.
			resp, err = c.post(t.Context(), path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("next request: %d, want 200", resp.StatusCode)
			}
		})
	}
}

func TestForeverNeverEnds(t *testing.T) {
	t.Parallel()
	chunk := `{"candidates":[{"content":{"role":"model","parts":[{"text":"more "}]}}]}`
	tests := []struct {
		name, path string
	}{
		{"sse", "/v1beta/models/m:streamGenerateContent?alt=sse"},
		{"json array", "/v1beta/models/m:streamGenerateContent"},
		{"unary", "/v1beta/models/m:generateContent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, c := newServer(t)
			if err := fake.Enqueue(fakegemini.Item{Chunks: []any{chunk}, Forever: true}); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			resp, err := c.post(ctx, tt.path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			// Far more than the script holds: the answer goes on.
			const want = 4 << 20
			n, err := io.Copy(io.Discard, io.LimitReader(resp.Body, want))
			if err != nil || n != want {
				t.Fatalf("read %d bytes (%v), want %d", n, err, want)
			}
			if tt.name == "sse" {
				line, _ := bufio.NewReader(resp.Body).ReadString('\n')
				if !strings.Contains(line, "data: ") && !strings.Contains(line, "more") {
					t.Errorf("frame %q is not an event of the chunk", line)
				}
			}
		})
	}
}

func TestForeverNeedsAnAnswer(t *testing.T) {
	t.Parallel()
	fake := fakegemini.New()
	for _, it := range []fakegemini.Item{
		{Forever: true},
		{Forever: true, Hang: true},
		{Hang: true, Error: &fakegemini.APIError{Code: 500}},
	} {
		if err := fake.Enqueue(it); err == nil {
			t.Errorf("Enqueue(%+v) succeeded, want an error", it)
		}
	}
}
