package gemini

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// fakeCaches is a [cacheAPI] that records its calls.
type fakeCaches struct {
	created []*genai.CreateCachedContentConfig
	deleted []string
	fail    error
}

func (f *fakeCaches) create(_ context.Context, _ string, cfg *genai.CreateCachedContentConfig) (*genai.CachedContent, error) {
	if f.fail != nil {
		return nil, f.fail
	}
	f.created = append(f.created, cfg)
	return &genai.CachedContent{Name: "cachedContents/new"}, nil
}

func (f *fakeCaches) delete(_ context.Context, name string) error {
	f.deleted = append(f.deleted, name)
	return f.fail
}

// fakeNow is the test clock: 1000 seconds after the epoch.
var fakeNow = time.Unix(1000, 0)

func testRequest() *v1.LlmRequest {
	return &v1.LlmRequest{
		Model: "gemini-2.5-flash",
		Contents: []*v1.Content{
			{Role: "user", Parts: []*v1.Part{{Text: "big document"}}},
			{Role: "model", Parts: []*v1.Part{{Text: "noted"}}},
			{Role: "user", Parts: []*v1.Part{{Text: "question"}}},
		},
		Config: &v1.GenerateContentConfig{
			SystemInstruction: "be brief",
			Tools:             []*v1.Tool{{FunctionDeclarations: []*v1.FunctionDeclaration{{Name: "f"}}}},
		},
	}
}

// callOf is the cache call of req, converted as the adapter converts it.
func callOf(req *v1.LlmRequest, tokens *int32, meta *v1.CacheMetadata) *cacheCall {
	cfg, err := requestConverter{}.config(req.GetConfig())
	if err != nil {
		panic(err)
	}
	return &cacheCall{
		model:          req.GetModel(),
		source:         req,
		sourceContents: req.GetContents(),
		contents:       requestConverter{}.contents(req),
		cfg:            cfg,
		config:         &v1.ContextCacheConfig{CacheIntervals: 3, TtlSeconds: 600, MinTokens: 0},
		meta:           meta,
		tokens:         tokens,
	}
}

func testCall(tokens *int32, meta *v1.CacheMetadata) *cacheCall {
	return callOf(testRequest(), tokens, meta)
}

func TestBehaviorContextCacheDecisions(t *testing.T) {
	t.Parallel()
	cm := &cacheManager{scope: cacheScope{Backend: "gemini"}, now: func() time.Time { return fakeNow }}
	fp2 := cm.fingerprint(testCall(nil, nil), 2)
	fp3 := cm.fingerprint(testCall(nil, nil), 3)
	active := func(used int32, expire float64, fp string) *v1.CacheMetadata {
		return &v1.CacheMetadata{CacheName: proto.String("cachedContents/old"), ExpireTime: proto.Float64(expire),
			Fingerprint: fp, InvocationsUsed: proto.Int32(used), ContentsCount: 2, CreatedAt: proto.Float64(900)}
	}
	created := &v1.CacheMetadata{CacheName: proto.String("cachedContents/new"), ExpireTime: proto.Float64(1600),
		Fingerprint: fp2, InvocationsUsed: proto.Int32(1), ContentsCount: 2, CreatedAt: proto.Float64(1000)}
	tests := []struct {
		name    string
		tokens  *int32
		meta    *v1.CacheMetadata
		want    *v1.CacheMetadata
		cached  string // the request's cachedContent, "" when uncached
		creates bool
		deletes []string
	}{
		// A first call only fingerprints the whole request.
		{name: "first call", tokens: proto.Int32(5000),
			want: &v1.CacheMetadata{Fingerprint: fp3, ContentsCount: 3}},
		// The prefix fingerprinted before is unchanged: cache it.
		{name: "prefix stable, large enough", tokens: proto.Int32(5000),
			meta: &v1.CacheMetadata{Fingerprint: fp2, ContentsCount: 2}, want: created, cached: "cachedContents/new", creates: true},
		// No prompt count yet, or under min_tokens or Gemini's 4096: keep
		// the prefix's count without a cache.
		{name: "no token count", meta: &v1.CacheMetadata{Fingerprint: fp2, ContentsCount: 2},
			want: &v1.CacheMetadata{Fingerprint: fp2, ContentsCount: 2}},
		{name: "under gemini minimum", tokens: proto.Int32(4095), meta: &v1.CacheMetadata{Fingerprint: fp2, ContentsCount: 2},
			want: &v1.CacheMetadata{Fingerprint: fp2, ContentsCount: 2}},
		// The prefix changed: fingerprint the whole request again.
		{name: "prefix changed", tokens: proto.Int32(5000), meta: &v1.CacheMetadata{Fingerprint: "0000000000000000", ContentsCount: 2},
			want: &v1.CacheMetadata{Fingerprint: fp3, ContentsCount: 3}},
		// A valid cache is reused as it is.
		{name: "reuse", tokens: proto.Int32(5000), meta: active(3, 1600, fp2), want: active(3, 1600, fp2), cached: "cachedContents/old"},
		// Used more than cache_intervals times: deleted and made again.
		{name: "intervals exceeded", tokens: proto.Int32(5000), meta: active(4, 1600, fp2), want: created,
			cached: "cachedContents/new", creates: true, deletes: []string{"cachedContents/old"}},
		// Expired (now >= expire_time): deleted and made again.
		{name: "expired", tokens: proto.Int32(5000), meta: active(1, 1000, fp2), want: created,
			cached: "cachedContents/new", creates: true, deletes: []string{"cachedContents/old"}},
		// The prefix changed under a live cache: deleted, fingerprint only.
		{name: "cache prefix changed", tokens: proto.Int32(5000), meta: active(1, 1600, "0000000000000000"),
			want: &v1.CacheMetadata{Fingerprint: fp3, ContentsCount: 3}, deletes: []string{"cachedContents/old"}},
		// Metadata naming no cache the API makes counts as none.
		{name: "hostile cache name", tokens: proto.Int32(5000),
			meta: &v1.CacheMetadata{CacheName: proto.String("../../models/x"), ExpireTime: proto.Float64(1600),
				Fingerprint: fp2, InvocationsUsed: proto.Int32(1), ContentsCount: 2},
			want: &v1.CacheMetadata{Fingerprint: fp3, ContentsCount: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			api := &fakeCaches{}
			cm := &cacheManager{api: api, scope: cacheScope{Backend: "gemini"}, now: func() time.Time { return fakeNow }}
			call := testCall(tt.tokens, tt.meta)
			got := cm.handle(t.Context(), call)
			if diff := cmp.Diff(tt.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("metadata (-want +got):\n%s", diff)
			}
			if call.cfg.CachedContent != tt.cached {
				t.Errorf("cachedContent = %q, want %q", call.cfg.CachedContent, tt.cached)
			}
			if tt.cached != "" {
				if call.cfg.SystemInstruction != nil || call.cfg.Tools != nil || len(call.contents) != 1 {
					t.Errorf("cached request keeps system instruction %v, tools %v, %d contents; want none, none, 1",
						call.cfg.SystemInstruction, call.cfg.Tools, len(call.contents))
				}
			} else if len(call.contents) != 3 || call.cfg.SystemInstruction == nil {
				t.Errorf("uncached request changed: %d contents, system instruction %v", len(call.contents), call.cfg.SystemInstruction)
			}
			if got := len(api.created) > 0; got != tt.creates {
				t.Errorf("created a cache: %v, want %v", got, tt.creates)
			}
			if tt.creates {
				c := api.created[0]
				if c.DisplayName != "adk-cache-1000-2contents" || c.TTL != 600*time.Second || len(c.Contents) != 2 ||
					c.SystemInstruction == nil || len(c.Tools) != 1 {
					t.Errorf("create config %+v", c)
				}
			}
			if diff := cmp.Diff(tt.deletes, api.deleted); diff != "" {
				t.Errorf("deleted (-want +got):\n%s", diff)
			}
		})
	}
}

func TestContextCacheCreateFailureKeepsPrefix(t *testing.T) {
	t.Parallel()
	api := &fakeCaches{fail: errors.New("quota")}
	cm := &cacheManager{api: api, scope: cacheScope{Backend: "gemini"}, now: func() time.Time { return fakeNow }}
	fp2 := cm.fingerprint(testCall(nil, nil), 2)
	call := testCall(proto.Int32(5000), &v1.CacheMetadata{Fingerprint: fp2, ContentsCount: 2})
	got := cm.handle(t.Context(), call)
	want := &v1.CacheMetadata{Fingerprint: fp2, ContentsCount: 2}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	if call.cfg.CachedContent != "" || len(call.contents) != 3 {
		t.Errorf("request changed after a failed create")
	}
}

func TestContextCacheFingerprint(t *testing.T) {
	t.Parallel()
	cm := &cacheManager{scope: cacheScope{Backend: "gemini"}}
	base := cm.fingerprint(testCall(nil, nil), 2)
	if len(base) != 16 {
		t.Fatalf("fingerprint %q: want 16 hex digits", base)
	}
	changes := map[string]func(r *v1.LlmRequest){
		"model":              func(r *v1.LlmRequest) { r.Model = "gemini-2.5-pro" },
		"system instruction": func(r *v1.LlmRequest) { r.Config.SystemInstruction = "x" },
		"tools":              func(r *v1.LlmRequest) { r.Config.Tools = nil },
		"tool config":        func(r *v1.LlmRequest) { r.Config.ToolConfig = &v1.ToolConfig{} },
		"cached content":     func(r *v1.LlmRequest) { r.Contents[1].Parts[0].Text = "other" },
	}
	for name, change := range changes {
		r := testRequest()
		change(r)
		if cm.fingerprint(callOf(r, nil, nil), 2) == base {
			t.Errorf("changing the %s keeps the fingerprint", name)
		}
	}
	// Contents past the prefix are not part of it.
	r := testRequest()
	r.Contents[2].Parts[0].Text = "another question"
	if cm.fingerprint(callOf(r, nil, nil), 2) != base {
		t.Error("a content past the prefix changed the fingerprint")
	}
	// The user turn the adapter appends counts as a content.
	r = testRequest()
	r.Contents = r.Contents[:2]
	if a, b := cm.fingerprint(callOf(r, nil, nil), 3), cm.fingerprint(callOf(r, nil, nil), 2); a == b {
		t.Error("the appended user turn is not part of the fingerprint")
	}
	other := &cacheManager{scope: cacheScope{Backend: "gemini", BaseURL: "http://elsewhere"}}
	if other.fingerprint(testCall(nil, nil), 2) == base {
		t.Error("another backend keeps the fingerprint")
	}
}

// BenchmarkContextCacheReuse measures the cache decision of a call that
// reuses a valid cache: a fingerprint of the prefix and the request
// rewrite.
func BenchmarkContextCacheReuse(b *testing.B) {
	cm := &cacheManager{api: &fakeCaches{}, scope: cacheScope{Backend: "gemini"}, now: func() time.Time { return fakeNow }}
	// A prefix of 40 turns of 100 words each.
	req := testRequest()
	req.Contents = nil
	text := strings.Repeat("word ", 100)
	for i := range 40 {
		role := "user"
		if i%2 == 1 {
			role = "model"
		}
		req.Contents = append(req.Contents, &v1.Content{Role: role, Parts: []*v1.Part{{Text: text}}})
	}
	req.Contents = append(req.Contents, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "question"}}})
	call := callOf(req, nil, nil)
	meta := &v1.CacheMetadata{CacheName: proto.String("cachedContents/old"), ExpireTime: proto.Float64(1600),
		Fingerprint: cm.fingerprint(call, 40), InvocationsUsed: proto.Int32(2), ContentsCount: 40, CreatedAt: proto.Float64(900)}
	cfg := *call.cfg
	b.ReportAllocs()
	for b.Loop() {
		c := *call
		c.cfg = new(genai.GenerateContentConfig)
		*c.cfg = cfg
		c.meta = meta
		if got := cm.handle(b.Context(), &c); got.CacheName == nil {
			b.Fatal("cache not reused")
		}
	}
}
