package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRun creates a session and runs one turn through the handler, with
// a stand-in Gemini API answering text.
func TestRun(t *testing.T) {
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/models/gemini-2.5-flash:generateContent") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"Sunny."}]},"finishReason":"STOP"}]}`)
	}))
	defer model.Close()
	handler, shutdown, err := newHandler(t.Context(), model.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = shutdown(t.Context()) }()
	srv := httptest.NewServer(handler)
	defer srv.Close()

	post := func(path, body string) string {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s: %s", path, resp.Status, b)
		}
		return string(b)
	}
	created := post("/api/apps/bench_agent/users/u1/sessions", `{}`)
	_, rest, _ := strings.Cut(created, `"id":"`)
	id, _, _ := strings.Cut(rest, `"`)
	got := post("/api/run", `{"appName":"bench_agent","userId":"u1","sessionId":"`+id+`","newMessage":{"role":"user","parts":[{"text":"Weather?"}]}}`)
	if !strings.Contains(got, `"text":"Sunny."`) {
		t.Errorf("/run answered %s, want the model's text", got)
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--gemini-base-url", "http://x", "--addr", "0.0.0.0:1"},
		{"--gemini-base-url", "http://x", "extra"},
	} {
		if err := run(t.Context(), args, io.Discard); err == nil {
			t.Errorf("%v: want an error", args)
		}
	}
}
