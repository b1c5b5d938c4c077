package fakegemini_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// TestControlAPI scripts the server only through its HTTP control API, as
// a test in another process does.
func TestControlAPI(t *testing.T) {
	t.Parallel()
	_, c := newServer(t)

	script := `{
		"responses": [
			{"model": "flash", "response": {"candidates": [{"content": {"role": "model", "parts": [{"text": "scripted"}]}, "finishReason": "STOP"}]}},
			{"chunks": [{"candidates": [{"content": {"parts": [{"text": "one "}]}}]}, {"candidates": [{"content": {"parts": [{"text": "two"}]}, "finishReason": "STOP"}]}], "delay": 1}
		],
		"rules": [{"contains": "boom", "error": {"code": 500, "message": "exploded"}}]
	}`
	status, b := c.do(t.Context(), http.MethodPost, "/_fake/script", script)
	if status != http.StatusOK || strings.TrimSpace(string(b)) != `{"responses":2,"rules":1}` {
		t.Fatalf("script: %d %s", status, b)
	}

	if _, resp := c.generate("flash", "hi", false); text(resp) != "scripted" {
		t.Errorf("first answer %q, want scripted", text(resp))
	}
	if _, resp := c.generate("flash", "hi", false); text(resp) != "one two" {
		t.Errorf("second answer %q, want the merged chunks", text(resp))
	}
	if status, _ := c.generate("flash", "say boom", false); status != http.StatusInternalServerError {
		t.Errorf("rule error: status %d, want 500", status)
	}

	status, b = c.do(t.Context(), http.MethodPost, "/_fake/faults", `{"latency":"1ms","fail":{"count":1,"code":429,"message":"quota"}}`)
	if status != http.StatusOK {
		t.Fatalf("faults: %d %s", status, b)
	}
	if status, _ := c.generate("flash", "hi", false); status != http.StatusTooManyRequests {
		t.Errorf("after faults: status %d, want 429", status)
	}

	status, b = c.do(t.Context(), http.MethodGet, "/_fake/requests", "")
	if status != http.StatusOK {
		t.Fatalf("requests: %d %s", status, b)
	}
	var reqs []fakegemini.Request
	if err := json.Unmarshal(b, &reqs); err != nil {
		t.Fatalf("requests %s: %v", b, err)
	}
	type summary struct {
		Model, Method, Answer string
		HasKey                bool
	}
	var got []summary
	for _, r := range reqs {
		got = append(got, summary{r.Model, r.Method, r.Answer, r.HasAPIKey})
		if r.Header.Get("X-Goog-Api-Key") != "" || r.Time.IsZero() || time.Since(r.Time) > time.Minute {
			t.Errorf("request %+v: key recorded or bad time", r)
		}
	}
	want := []summary{
		{"flash", "generateContent", "queue", true},
		{"flash", "generateContent", "queue", true},
		{"flash", "generateContent", "rule", true},
		{"flash", "generateContent", "fault", true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	var body struct{ Contents []struct{ Role string } }
	if err := reqs[0].Decode(&body); err != nil || len(body.Contents) != 3 {
		t.Errorf("decode of a request read back: %+v, %v", body, err)
	}

	if status, _ := c.do(t.Context(), http.MethodPost, "/_fake/reset", ""); status != http.StatusOK {
		t.Fatalf("reset: %d", status)
	}
	_, b = c.do(t.Context(), http.MethodGet, "/_fake/requests", "")
	if strings.TrimSpace(string(b)) != "[]" {
		t.Errorf("requests after reset: %s, want []", b)
	}
	if _, resp := c.generate("flash", "say boom", false); text(resp) != "Echo: say boom" {
		t.Errorf("after reset: %q, want the echo", text(resp))
	}
}

func TestControlAPIRejectsBadRequests(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, path, body string
	}{
		{name: "unknown field", path: "/_fake/script", body: `{"responses": [], "extra": 1}`},
		{name: "item without answer", path: "/_fake/script", body: `{"responses": [{"model": "m"}]}`},
		{name: "bad delay", path: "/_fake/script", body: `{"responses": [{"response": {}, "delay": "soon"}]}`},
		{name: "not JSON", path: "/_fake/faults", body: `latency=1s`},
		{name: "fail count", path: "/_fake/faults", body: `{"fail": {"count": 0, "code": 500}}`},
		{name: "fail code", path: "/_fake/faults", body: `{"fail": {"count": 1, "code": 302}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, c := newServer(t)
			status, b := c.do(t.Context(), http.MethodPost, tt.path, tt.body)
			if status != http.StatusBadRequest || !strings.Contains(string(b), `"INVALID_ARGUMENT"`) {
				t.Errorf("status %d body %s, want 400 with Google's error JSON", status, b)
			}
			// Nothing was applied: the default echo answers.
			if status, resp := c.generate("m", "x", false); status != http.StatusOK || text(resp) != "Echo: x" {
				t.Errorf("after a rejected script: %d %q", status, text(resp))
			}
			_ = fake
		})
	}
}

func TestControlAPIKeepsKeyOrder(t *testing.T) {
	t.Parallel()
	_, c := newServer(t)
	call := `{"functionCall":{"name":"search","args":{"query":"x","ok":true,"v":null}}}`
	script := `{"responses":[{"response":{"candidates":[{"content":{"role":"model","parts":[` + call + `]},"finishReason":"STOP"}]}}]}`
	if status, b := c.do(t.Context(), http.MethodPost, "/_fake/script", script); status != http.StatusOK {
		t.Fatalf("script: %d %s", status, b)
	}
	status, b := c.do(t.Context(), http.MethodPost, "/v1beta/models/flash:generateContent", requestBody("hi", false))
	if status != http.StatusOK || !strings.Contains(string(b), call) {
		t.Errorf("answer %d %s, want the call as scripted: %s", status, b, call)
	}
}
