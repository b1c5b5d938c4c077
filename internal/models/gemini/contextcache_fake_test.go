package gemini_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
)

// testClock is a clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// cachedSession plays the part of the engine for one agent: it grows the
// conversation by one turn per invocation and carries the cache metadata
// and prompt token count of the last response to the next request, as
// ADK's context cache processor does.
type cachedSession struct {
	contents []*v1.Content
	meta     *v1.CacheMetadata
	tokens   *int32
}

func TestContextCacheOverSDK(t *testing.T) {
	t.Parallel()
	clock := &testClock{now: time.Unix(1_800_000_000, 0)}
	fake, p := newFake(t, gemini.Config{Now: clock.Now})
	m, err := p.Model(t.Context(), "gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	// A system instruction long enough for Gemini's 4096-token minimum (the
	// fake counts words as tokens).
	system := strings.Repeat("rule ", 5000)
	cacheConfig := &v1.ContextCacheConfig{CacheIntervals: 2, TtlSeconds: 600}
	var s cachedSession
	invoke := func(user string) *v1.LlmResponse {
		t.Helper()
		if s.meta.GetCacheName() != "" {
			// A new invocation uses the cache once more.
			s.meta.InvocationsUsed = proto.Int32(s.meta.GetInvocationsUsed() + 1)
		}
		s.contents = append(s.contents, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: user}}})
		req := &v1.LlmRequest{
			Model:    "gemini-2.5-flash",
			Contents: s.contents,
			Config: &v1.GenerateContentConfig{SystemInstruction: system, Tools: []*v1.Tool{{
				FunctionDeclarations: []*v1.FunctionDeclaration{{Name: "lookup", Description: "Looks up."}}}}},
			CacheConfig:                 cacheConfig,
			CacheMetadata:               s.meta,
			CacheableContentsTokenCount: s.tokens,
		}
		var last *v1.LlmResponse
		for resp, err := range m.GenerateContent(t.Context(), req, false) {
			if err != nil {
				t.Fatalf("invocation %q: %v", user, err)
			}
			last = resp
		}
		s.contents = append(s.contents, last.GetContent())
		s.meta, s.tokens = last.GetCacheMetadata(), proto.Int32(last.GetUsageMetadata().GetPromptTokenCount())
		return last
	}
	creates := func() (names []string) {
		for _, r := range fake.Requests() {
			if r.Method == "cachedContents.create" {
				names = append(names, r.Path)
			}
		}
		return names
	}

	// 1: nothing to compare with yet: fingerprint only.
	resp := invoke("one")
	if resp.GetCacheMetadata().CacheName != nil || resp.GetCacheMetadata().GetContentsCount() != 1 {
		t.Fatalf("first metadata %v: want the fingerprint of 1 content", resp.GetCacheMetadata())
	}
	// 2: the first content is unchanged and the prompt large: cached.
	resp = invoke("two")
	first := resp.GetCacheMetadata().GetCacheName()
	if first == "" || resp.GetCacheMetadata().GetInvocationsUsed() != 1 || len(creates()) != 1 {
		t.Fatalf("second metadata %v, %d creates: want a new cache", resp.GetCacheMetadata(), len(creates()))
	}
	if got := resp.GetUsageMetadata().GetCachedContentTokenCount(); got < 5000 {
		t.Errorf("cached token count %d, want the cached prefix's (over 5000)", got)
	}
	// 3: reused (used 2 <= cache_intervals 2).
	resp = invoke("three")
	if got := resp.GetCacheMetadata().GetCacheName(); got != first || len(creates()) != 1 {
		t.Fatalf("third call cache %q, %d creates: want %q reused", got, len(creates()), first)
	}
	// 4: used 3 > 2: refreshed.
	resp = invoke("four")
	second := resp.GetCacheMetadata().GetCacheName()
	if second == "" || second == first || len(creates()) != 2 || len(fake.Caches()) != 1 {
		t.Fatalf("fourth call cache %q, %d creates, live %v: want a fresh cache replacing %q", second, len(creates()), fake.Caches(), first)
	}
	// 5: both clocks past the TTL: the expired cache is replaced.
	clock.advance(601 * time.Second)
	fake.AdvanceClock(601 * time.Second)
	resp = invoke("five")
	third := resp.GetCacheMetadata().GetCacheName()
	if third == "" || third == second || len(creates()) != 3 {
		t.Fatalf("fifth call cache %q, %d creates: want a fresh cache replacing the expired %q", third, len(creates()), second)
	}
	if want := float64(clock.Now().Unix() + 600); resp.GetCacheMetadata().GetExpireTime() != want {
		t.Errorf("expire time %v, want %v", resp.GetCacheMetadata().GetExpireTime(), want)
	}
	// Every generateContent after the first create named a cache and sent
	// only the contents after the cached one.
	var generates int
	for _, r := range fake.Requests() {
		if r.Method != "generateContent" {
			continue
		}
		generates++
		if _, cached := r.Body["cachedContent"]; cached != (generates > 1) {
			t.Errorf("generate %d: cachedContent present %v", generates, cached)
		}
	}
}
