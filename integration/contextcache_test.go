package integration

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// manualClock is a clock the test moves.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestEngineContextCacheOverGeminiAPI runs an app with context_cache_config
// (cache_intervals 2, TTL 600 s) for five invocations on the Gemini adapter
// against the fake server: the cache is made at the second, reused at the
// third, refreshed at the fourth (used past its intervals) and remade at
// the fifth (expired), each step recorded on the agent's events as ADK
// records it.
func TestEngineContextCacheOverGeminiAPI(t *testing.T) {
	t.Parallel()
	fake := fakegemini.New()
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	clock := &manualClock{now: time.Unix(1_800_000_000, 0)}
	provider, err := gemini.New(t.Context(), gemini.Config{APIKey: "test-key", BaseURL: srv.URL, Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	// Long enough for Gemini's 4096-token minimum: the fake counts words.
	agent, err := llmagent.New(llmagent.Config{Name: "reader", Model: "gemini-2.5-flash",
		Instruction: strings.Repeat("rule ", 5000)})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, agent)
	h.Runner.Models = provider
	h.Runner.App.ContextCache = &v1.ContextCacheConfig{CacheIntervals: 2, TtlSeconds: 600}
	sid := h.NewSession(t, nil)
	for _, text := range []string{"one", "two", "three", "four", "five"} {
		if text == "five" {
			clock.advance(601 * time.Second)
			fake.AdvanceClock(601 * time.Second)
		}
		h.RunText(t, sid, text)
	}

	type step struct {
		Cache        string
		Used, Count  int32
		CachedTokens bool
	}
	var got []step
	for _, e := range h.Session(t, sid).GetEvents() {
		if e.GetAuthor() != "reader" {
			continue
		}
		m := e.GetCacheMetadata()
		if m.GetFingerprint() == "" {
			t.Errorf("event %s has no fingerprint: %v", e.GetId(), m)
		}
		got = append(got, step{m.GetCacheName(), m.GetInvocationsUsed(), m.GetContentsCount(),
			e.GetUsageMetadata().GetCachedContentTokenCount() > 0})
	}
	want := []step{
		{"", 0, 1, false},
		{"cachedContents/cache1", 1, 1, true},
		{"cachedContents/cache1", 2, 1, true},
		{"cachedContents/cache2", 1, 1, true},
		{"cachedContents/cache3", 1, 1, true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("cache steps (-want +got):\n%s", d)
	}
	var methods []string
	for _, r := range fake.Requests() {
		methods = append(methods, r.Method)
	}
	wantMethods := []string{"generateContent", "cachedContents.create", "generateContent", "generateContent",
		"cachedContents.delete", "cachedContents.create", "generateContent",
		"cachedContents.delete", "cachedContents.create", "generateContent"}
	if d := cmp.Diff(wantMethods, methods); d != "" {
		t.Errorf("requests (-want +got):\n%s", d)
	}
}

// TestContextCacheFromAppYAML: the binary reads context_cache_config from
// an app's app.yaml and caches over the Gemini API: no cache at the first
// invocation (a fingerprint only), one made at the second and reused at the
// third, and a new one at the fourth, its intervals used up; the events
// read back over gRPC carry ADK's cache metadata.
func TestContextCacheFromAppYAML(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{
		"cached":          "name: reader\nmodel: gemini-2.5-flash\ninstruction: " + strings.Repeat("rule ", 5000) + "\n",
		"cached/app.yaml": "context_cache_config: {cache_intervals: 2, ttl_seconds: 600}\n",
	})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := ""
	for _, text := range []string{"one", "two", "three", "four"} {
		sid, _ = s.runApp(t, ctx, "cached", sid, text)
	}
	var caches []string
	for _, r := range s.modelRequests(t) {
		if r.Body["contents"] == nil || r.Body["displayName"] != nil {
			continue // the cache's own requests
		}
		name, _ := r.Body["cachedContent"].(string)
		caches = append(caches, name)
	}
	if len(caches) != 4 || caches[0] != "" || caches[1] == "" || caches[2] != caches[1] || caches[3] == "" || caches[3] == caches[1] {
		t.Errorf("cachedContent of the four requests = %q, want none, a cache, the same, another", caches)
	}
	resp, err := api.NewSessionServiceClient(s.conn).GetSession(ctx, &api.GetSessionRequest{AppName: "cached", UserId: "u", SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	var used []string
	for _, e := range resp.Session.GetEvents() {
		if m := e.GetCacheMetadata(); e.GetAuthor() == "reader" && m != nil {
			used = append(used, fmt.Sprintf("%s/%d", m.GetCacheName(), m.GetInvocationsUsed()))
		}
	}
	want := []string{"/0", caches[1] + "/1", caches[1] + "/2", caches[len(caches)-1] + "/1"}
	if strings.Join(used, " ") != strings.Join(want, " ") {
		t.Errorf("cache metadata of the answers = %q, want %q", used, want)
	}
}
