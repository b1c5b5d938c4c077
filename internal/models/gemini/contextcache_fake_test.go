package gemini_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
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

// TestBehaviorContextCacheMatchesADK runs ADK's context caching over the
// real SDK against the fake server for five invocations (cache_intervals
// 2, TTL 600 s, the TTL passed before the fifth) and compares the HTTP
// requests and the cache metadata with what google-adk 1.39.1 sent and
// stored in the same run (testdata/contextcache/record.py).
func TestBehaviorContextCacheMatchesADK(t *testing.T) {
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
	var metadata []*v1.CacheMetadata
	invoke := func(user string) *v1.LlmResponse {
		t.Helper()
		if s.meta.GetCacheName() != "" {
			// A new invocation uses the cache once more.
			s.meta = proto.CloneOf(s.meta)
			s.meta.InvocationsUsed = proto.Int32(s.meta.GetInvocationsUsed() + 1)
		}
		s.contents = append(s.contents, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: user}}})
		req := &v1.LlmRequest{
			Model:    "gemini-2.5-flash",
			Contents: s.contents,
			Config: &v1.GenerateContentConfig{SystemInstruction: system, Tools: []*v1.Tool{{
				FunctionDeclarations: []*v1.FunctionDeclaration{{Name: "lookup", Description: "Looks up.",
					Parameters: mustStruct(t, `{"type":"OBJECT","properties":{"q":{"type":"STRING"}},"required":["q"]}`)}}}}},
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
		metadata = append(metadata, last.GetCacheMetadata())
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
	compareWithADK(t, fake.Requests(), metadata)
}

// compareWithADK compares the requests and metadata of a run with ADK's,
// placeholders put in where ADK's record has them.
func compareWithADK(t *testing.T, requests []fakegemini.Request, metadata []*v1.CacheMetadata) {
	t.Helper()
	raw, err := os.ReadFile("testdata/contextcache/adk-1.39.1.json")
	if err != nil {
		t.Fatal(err)
	}
	var want, got struct {
		Requests []struct {
			Method string         `json:"method"`
			Path   string         `json:"path"`
			Body   map[string]any `json:"body"`
		} `json:"requests"`
		CacheMetadata []map[string]any `json:"cacheMetadata"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for _, r := range requests {
		if si, ok := r.Body["systemInstruction"].(map[string]any); ok {
			si["parts"] = []any{map[string]any{"text": "<system instruction>"}}
		}
		if name, ok := r.Body["displayName"].(string); ok {
			r.Body["displayName"] = regexp.MustCompile(`adk-cache-\d+-`).ReplaceAllString(name, "adk-cache-<time>-")
		}
		got.Requests = append(got.Requests, struct {
			Method string         `json:"method"`
			Path   string         `json:"path"`
			Body   map[string]any `json:"body"`
		}{r.Method, r.Path, r.Body})
	}
	for _, m := range metadata {
		b, err := protojson.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var js map[string]any
		if err := json.Unmarshal(b, &js); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"expire_time", "created_at"} {
			if _, ok := js[k]; ok {
				js[k] = "<time>"
			}
		}
		js["fingerprint"] = "<fingerprint>"
		got.CacheMetadata = append(got.CacheMetadata, js)
	}
	// Round-trip ours through JSON so that numbers compare as ADK's do.
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	got.Requests, got.CacheMetadata = nil, nil
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests and cache metadata differ from google-adk 1.39.1's (-adk +ours):\n%s", diff)
	}
}

// TestBehaviorContextCacheMetadataOnStreamAggregate checks that a streamed
// call carries the cache metadata on its aggregated response only, as ADK
// puts it on the aggregator's closing response.
func TestBehaviorContextCacheMetadataOnStreamAggregate(t *testing.T) {
	t.Parallel()
	_, p := newFake(t, gemini.Config{})
	req := &v1.LlmRequest{Model: "gemini-2.5-flash",
		Contents:    []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "hello there"}}}},
		CacheConfig: &v1.ContextCacheConfig{CacheIntervals: 10, TtlSeconds: 1800}}
	out, err := collect(t.Context(), t, p, req, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 2 {
		t.Fatalf("%d responses, want partials and an aggregate", len(out))
	}
	for i, r := range out {
		last := i == len(out)-1
		if m := r.GetCacheMetadata(); (m != nil) != last {
			t.Errorf("response %d (partial %v): metadata %v", i, r.GetPartial(), m)
		}
	}
	if m := out[len(out)-1].GetCacheMetadata(); m.CacheName != nil || m.GetContentsCount() != 1 || len(m.GetFingerprint()) != 16 {
		t.Errorf("aggregate metadata %v: want the fingerprint of 1 content", m)
	}
}

func TestContextCacheOnVertexAI(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t, backendConfig(true))
	system := strings.Repeat("rule ", 5000)
	contents := []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "one"}}}}
	req := &v1.LlmRequest{Model: "gemini-2.5-flash", Contents: contents,
		Config:      &v1.GenerateContentConfig{SystemInstruction: system},
		CacheConfig: &v1.ContextCacheConfig{CacheIntervals: 10, TtlSeconds: 1800}}
	out, err := collect(t.Context(), t, p, req, false)
	if err != nil {
		t.Fatal(err)
	}
	req = proto.CloneOf(req)
	req.Contents = append(req.Contents, out[0].GetContent(), &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "two"}}})
	req.CacheMetadata = out[0].GetCacheMetadata()
	req.CacheableContentsTokenCount = proto.Int32(out[0].GetUsageMetadata().GetPromptTokenCount())
	out, err = collect(t.Context(), t, p, req, false)
	if err != nil {
		t.Fatal(err)
	}
	const want = "projects/proj/locations/us-central1/cachedContents/cache1"
	if got := out[0].GetCacheMetadata().GetCacheName(); got != want {
		t.Fatalf("cache %q, want %q", got, want)
	}
	reqs := fake.Requests()
	if last := reqs[len(reqs)-1]; last.Body["cachedContent"] != want {
		t.Errorf("generate names cache %v, want %q", last.Body["cachedContent"], want)
	}
}
