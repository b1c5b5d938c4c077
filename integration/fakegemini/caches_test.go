package fakegemini_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestCachedContents(t *testing.T) {
	t.Parallel()
	fake, c := newServer(t)
	ctx := t.Context()
	status, b := c.do(ctx, http.MethodPost, "/v1beta/cachedContents", `{"model":"models/gemini-2.5-flash","ttl":"60s",
		"displayName":"d","systemInstruction":{"role":"user","parts":[{"text":"be very brief"}]},
		"contents":[{"role":"user","parts":[{"text":"a long document"}]}]}`)
	if status != http.StatusOK {
		t.Fatalf("create: %d %s", status, b)
	}
	var created map[string]any
	if err := json.Unmarshal(b, &created); err != nil {
		t.Fatal(err)
	}
	name, _ := created["name"].(string)
	if !strings.HasPrefix(name, "cachedContents/") || created["displayName"] != "d" ||
		created["usageMetadata"].(map[string]any)["totalTokenCount"] != float64(6) {
		t.Fatalf("created %v", created)
	}

	// generateContent with the cache: the cached fields come first in what
	// is recorded, and the answer counts the cached tokens.
	status, b = c.do(ctx, http.MethodPost, "/v1beta/models/gemini-2.5-flash:generateContent",
		`{"cachedContent":"`+name+`","contents":[{"role":"user","parts":[{"text":"question"}]}]}`)
	if status != http.StatusOK || !strings.Contains(string(b), `"cachedContentTokenCount":6`) {
		t.Fatalf("generate with cache: %d %s", status, b)
	}
	reqs := fake.Requests()
	last := reqs[len(reqs)-1]
	contents, _ := last.Body["contents"].([]any)
	if len(contents) != 2 || last.Body["systemInstruction"] == nil {
		t.Errorf("recorded body %v: want the cached content and system instruction put in", last.Body)
	}

	errorsFor := []struct {
		name, path, body string
		code             int
		message          string
	}{
		{"with system instruction", "/v1beta/models/gemini-2.5-flash:generateContent",
			`{"cachedContent":"` + name + `","systemInstruction":{"parts":[{"text":"x"}]},"contents":[{"role":"user","parts":[{"text":"q"}]}]}`,
			http.StatusBadRequest, "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config."},
		{"other model", "/v1beta/models/gemini-2.5-pro:generateContent",
			`{"cachedContent":"` + name + `","contents":[{"role":"user","parts":[{"text":"q"}]}]}`,
			http.StatusBadRequest, "Model used by GenerateContent request (models/gemini-2.5-pro) and CachedContent (models/gemini-2.5-flash) has to be the same."},
		{"unknown cache", "/v1beta/models/gemini-2.5-flash:generateContent",
			`{"cachedContent":"cachedContents/nope","contents":[{"role":"user","parts":[{"text":"q"}]}]}`,
			http.StatusForbidden, "CachedContent not found (or permission denied)"},
		{"bad ttl", "/v1beta/cachedContents", `{"model":"models/m","ttl":"-5s"}`, http.StatusBadRequest, "Invalid value at 'cached_content.ttl'"},
	}
	for _, tt := range errorsFor {
		status, b := c.do(ctx, http.MethodPost, tt.path, tt.body)
		if status != tt.code || !strings.Contains(string(b), tt.message) {
			t.Errorf("%s: %d %s, want %d %q", tt.name, status, b, tt.code, tt.message)
		}
	}

	// get, patch (a longer TTL) and list.
	if status, b := c.do(ctx, http.MethodGet, "/v1beta/"+name, ""); status != http.StatusOK || !strings.Contains(string(b), name) {
		t.Errorf("get: %d %s", status, b)
	}
	if status, b := c.do(ctx, http.MethodPatch, "/v1beta/"+name+"?updateMask=ttl", `{"ttl":"120s"}`); status != http.StatusOK {
		t.Errorf("patch: %d %s", status, b)
	}
	if status, b := c.do(ctx, http.MethodGet, "/v1beta/cachedContents", ""); status != http.StatusOK || !strings.Contains(string(b), name) {
		t.Errorf("list: %d %s", status, b)
	}

	// The clock passes the patched TTL: the cache is gone everywhere.
	status, b = c.do(ctx, http.MethodPost, "/_fake/clock", `{"advanceSeconds":119}`)
	if status != http.StatusOK {
		t.Fatalf("clock: %d %s", status, b)
	}
	if len(fake.Caches()) != 1 {
		t.Fatalf("caches before expiry %v", fake.Caches())
	}
	fake.AdvanceClock(time.Second)
	if len(fake.Caches()) != 0 {
		t.Errorf("caches after expiry %v", fake.Caches())
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		if status, _ := c.do(ctx, m, "/v1beta/"+name, ""); status != http.StatusForbidden {
			t.Errorf("%s of an expired cache: %d, want 403", m, status)
		}
	}
	status, _ = c.do(ctx, http.MethodPost, "/v1beta/models/gemini-2.5-flash:generateContent",
		`{"cachedContent":"`+name+`","contents":[{"role":"user","parts":[{"text":"q"}]}]}`)
	if status != http.StatusForbidden {
		t.Errorf("generate with an expired cache: %d, want 403", status)
	}
}

func TestCachedContentsDeleteAndReset(t *testing.T) {
	t.Parallel()
	fake, c := newServer(t)
	ctx := t.Context()
	for range 2 {
		if status, b := c.do(ctx, http.MethodPost, "/v1beta1/projects/p/locations/us-central1/cachedContents",
			`{"model":"projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash"}`); status != http.StatusOK {
			t.Fatalf("create: %d %s", status, b)
		}
	}
	names := fake.Caches()
	if len(names) != 2 || !strings.HasPrefix(names[0], "projects/p/locations/us-central1/cachedContents/") {
		t.Fatalf("caches %v", names)
	}
	if status, b := c.do(ctx, http.MethodDelete, "/v1beta1/"+names[0], ""); status != http.StatusOK {
		t.Fatalf("delete: %d %s", status, b)
	}
	if len(fake.Caches()) != 1 {
		t.Errorf("after delete %v", fake.Caches())
	}
	fake.AdvanceClock(2 * time.Hour)
	fake.Reset()
	if len(fake.Caches()) != 0 {
		t.Errorf("after reset %v", fake.Caches())
	}
	if status, b := c.do(ctx, http.MethodPost, "/_fake/clock", `{"advanceSeconds":-1}`); status != http.StatusBadRequest {
		t.Errorf("clock back: %d %s, want 400", status, b)
	}
}
