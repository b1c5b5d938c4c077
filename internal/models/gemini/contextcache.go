package gemini

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"log/slog"
	"regexp"
	"time"

	"google.golang.org/genai"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// geminiMinCacheTokens is the smallest prompt the Gemini API caches; ADK
// checks it before asking.
const geminiMinCacheTokens = 4096

// cacheAPI is the part of the Caches API the cache manager uses.
type cacheAPI interface {
	create(ctx context.Context, model string, cfg *genai.CreateCachedContentConfig) (*genai.CachedContent, error)
	delete(ctx context.Context, name string) error
}

// genaiCaches is [cacheAPI] over an SDK client.
type genaiCaches struct{ client *genai.Client }

func (g genaiCaches) create(ctx context.Context, model string, cfg *genai.CreateCachedContentConfig) (*genai.CachedContent, error) {
	return g.client.Caches.Create(ctx, model, cfg)
}

func (g genaiCaches) delete(ctx context.Context, name string) error {
	_, err := g.client.Caches.Delete(ctx, name, nil)
	return err
}

// cacheScope is the backend that owns the caches; it is part of every
// fingerprint, as a cache of one backend means nothing to another.
type cacheScope struct {
	Backend  string `json:"backend"`
	BaseURL  string `json:"base_url,omitempty"`
	Location string `json:"location,omitempty"`
	Project  string `json:"project,omitempty"`
}

// cacheManager is ADK's GeminiContextCacheManager: it decides, per request,
// whether to reuse, create or drop an explicit cache of the request's
// stable prefix (system instruction, tools, tool config and the contents
// before the last user turns) and rewrites the request to use it. It keeps
// no state: what it knows comes with the request, from the session's
// events. It is safe for concurrent use.
type cacheManager struct {
	api   cacheAPI
	scope cacheScope
	// now is the clock; time.Now outside tests.
	now func() time.Time
}

// cacheCall is one model call as the cache manager sees it: the converted
// request, which it rewrites when a cache applies, and what the session
// says about earlier calls.
type cacheCall struct {
	model string
	// source is the request as the engine gave it, and sourceContents
	// its contents without nil ones: the converted contents are these,
	// then maybe one appended user turn.
	source         *v1.LlmRequest
	sourceContents []*v1.Content
	contents       []*genai.Content
	cfg            *genai.GenerateContentConfig
	config         *v1.ContextCacheConfig
	// meta is the agent's latest cache metadata; tokens the prompt token
	// count of its latest response. Either may be nil.
	meta   *v1.CacheMetadata
	tokens *int32
}

// handle is ADK's handle_context_caching: it returns the cache metadata to
// record on the response. A valid cache is applied; an invalid one is
// deleted and, when the prefix is unchanged, replaced by a new one; with
// no earlier metadata, or a changed prefix, only the fingerprint of the
// whole request is returned, for the next call to compare against.
func (cm *cacheManager) handle(ctx context.Context, c *cacheCall) *v1.CacheMetadata {
	old := usableCacheMetadata(c.meta)
	if old == nil {
		return cm.fingerprintOnly(c, len(c.contents))
	}
	n := int(old.GetContentsCount())
	fp := cm.fingerprint(c, n)
	if old.CacheName != nil && cm.valid(c, old, fp) {
		applyCache(c, old.GetCacheName(), n)
		return proto.CloneOf(old)
	}
	if old.CacheName != nil {
		cm.cleanup(ctx, old.GetCacheName())
	}
	if fp != old.GetFingerprint() {
		return cm.fingerprintOnly(c, len(c.contents))
	}
	meta := cm.createCache(ctx, c, n, fp)
	if meta == nil {
		// Keep the prefix's count, so that the next call compares the
		// same prefix.
		return &v1.CacheMetadata{Fingerprint: fp, ContentsCount: int32(n)}
	}
	applyCache(c, meta.GetCacheName(), n)
	return meta
}

// fingerprintOnly is metadata without a cache: the fingerprint of the
// first n contents and the rest of the prefix.
func (cm *cacheManager) fingerprintOnly(c *cacheCall, n int) *v1.CacheMetadata {
	return &v1.CacheMetadata{Fingerprint: cm.fingerprint(c, n), ContentsCount: int32(n)}
}

// valid is ADK's _is_cache_valid for active metadata whose prefix
// fingerprint is fp: not expired, not used past cache_intervals, and the
// prefix unchanged.
func (cm *cacheManager) valid(c *cacheCall, m *v1.CacheMetadata, fp string) bool {
	name := m.GetCacheName()
	switch {
	case unixSeconds(cm.now()) >= m.GetExpireTime():
		slog.Info("context cache expired", "cache", name)
		return false
	case m.GetInvocationsUsed() > c.config.GetCacheIntervals():
		slog.Info("context cache exceeded its intervals", "cache", name,
			"invocations_used", m.GetInvocationsUsed(), "cache_intervals", c.config.GetCacheIntervals())
		return false
	case fp != m.GetFingerprint():
		slog.Debug("context cache prefix changed", "cache", name)
		return false
	}
	return true
}

// createCache is ADK's _create_new_cache_with_contents: it caches the
// prefix with the first n contents when the previous prompt was large
// enough, and returns nil when it did not (or the API refused).
func (cm *cacheManager) createCache(ctx context.Context, c *cacheCall, n int, fp string) *v1.CacheMetadata {
	switch {
	case c.tokens == nil:
		slog.Info("no previous token count available, skipping cache creation for initial request")
		return nil
	case *c.tokens < c.config.GetMinTokens():
		slog.Info("previous request too small for caching", "tokens", *c.tokens, "min_tokens", c.config.GetMinTokens())
		return nil
	case *c.tokens < geminiMinCacheTokens:
		slog.Info("request below gemini minimum cache size", "tokens", *c.tokens, "min_tokens", geminiMinCacheTokens)
		return nil
	}
	ttl := int64(c.config.GetTtlSeconds())
	cc := &genai.CreateCachedContentConfig{
		Contents:          c.contents[:min(n, len(c.contents))],
		TTL:               time.Duration(ttl) * time.Second,
		DisplayName:       fmt.Sprintf("adk-cache-%d-%dcontents", cm.now().Unix(), n),
		SystemInstruction: c.cfg.SystemInstruction,
		Tools:             c.cfg.Tools,
		ToolConfig:        c.cfg.ToolConfig,
	}
	cached, err := recoverCall(func() (*genai.CachedContent, error) { return cm.api.create(ctx, c.model, cc) })
	if err != nil {
		slog.WarnContext(ctx, "failed to create context cache", "err", err)
		return nil
	}
	if !cacheNamePattern.MatchString(cached.Name) {
		slog.WarnContext(ctx, "failed to create context cache", "err", "the API answered an invalid cache name")
		return nil
	}
	created := unixSeconds(cm.now())
	slog.Info("context cache created", "cache", cached.Name)
	return &v1.CacheMetadata{
		CacheName:       proto.String(cached.Name),
		ExpireTime:      proto.Float64(created + float64(ttl)),
		Fingerprint:     fp,
		InvocationsUsed: proto.Int32(1),
		ContentsCount:   int32(n),
		CreatedAt:       proto.Float64(created),
	}
}

// cleanup deletes a cache that is no longer valid; failures are logged,
// as in ADK.
func (cm *cacheManager) cleanup(ctx context.Context, name string) {
	_, err := recoverCall(func() (struct{}, error) { return struct{}{}, cm.api.delete(ctx, name) })
	if err != nil {
		slog.WarnContext(ctx, "failed to clean up context cache", "cache", name, "err", err)
		return
	}
	slog.Info("context cache cleaned up", "cache", name)
}

// applyCache is ADK's _apply_cache_to_request: the cache carries the
// system instruction, tools, tool config and first n contents, so the
// request drops them and names the cache.
func applyCache(c *cacheCall, name string, n int) {
	c.cfg.SystemInstruction = nil
	c.cfg.Tools = nil
	c.cfg.ToolConfig = nil
	c.cfg.CachedContent = name
	c.contents = c.contents[min(n, len(c.contents)):]
}

// fingerprint is ADK's _generate_cache_fingerprint: the first 16 hex
// digits of the SHA-256 of what a cache of the first n contents would
// hold, with the model and backend it belongs to. ADK hashes the JSON of
// its SDK objects; this hashes the deterministic wire form of the same
// fields of the request, each with its length, which is many times
// faster and as exact (the fields convert one to one).
func (cm *cacheManager) fingerprint(c *cacheCall, n int) string {
	h := sha256.New()
	var buf []byte
	field := func(tag byte, b []byte) {
		buf = binary.AppendUvarint(append(buf[:0], tag), uint64(len(b)))
		h.Write(buf)
		h.Write(b)
	}
	field('m', []byte(c.model))
	field('b', []byte(cm.scope.Backend))
	field('u', []byte(cm.scope.BaseURL))
	field('p', []byte(cm.scope.Project))
	field('l', []byte(cm.scope.Location))
	cfg := c.source.GetConfig()
	field('s', []byte(cfg.GetSystemInstruction()))
	var wire []byte
	for _, t := range cfg.GetTools() {
		wire, _ = deterministic.MarshalAppend(wire[:0], t)
		field('t', wire)
	}
	if tc := cfg.GetToolConfig(); tc != nil {
		wire, _ = deterministic.MarshalAppend(wire[:0], tc)
		field('c', wire)
	}
	for i := range min(n, len(c.contents)) {
		if i < len(c.sourceContents) {
			wire, _ = deterministic.MarshalAppend(wire[:0], c.sourceContents[i])
			field('x', wire)
			continue
		}
		// The user turn the adapter appended: one text part.
		for _, p := range c.contents[i].Parts {
			field('a', []byte(p.Text))
		}
	}
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:8])
}

// deterministic marshals messages the same way every time, maps included.
var deterministic = proto.MarshalOptions{Deterministic: true}

// cacheNamePattern is the shape of a cache's resource name on either
// backend.
var cacheNamePattern = regexp.MustCompile(`^(projects/[A-Za-z0-9._-]{1,128}/locations/[a-z0-9-]{1,64}/)?cachedContents/[A-Za-z0-9._-]{1,128}$`)

// usableCacheMetadata returns m when it is whole enough to act on: the
// metadata comes from stored events, which a client callback may have
// written. Metadata that breaks ADK's invariants (a cache name, expiry and
// use count all set or none; no negative counts) or names no cache the
// API could have made counts as none.
func usableCacheMetadata(m *v1.CacheMetadata) *v1.CacheMetadata {
	if m == nil || m.GetContentsCount() < 0 || m.GetInvocationsUsed() < 0 {
		return nil
	}
	active := m.CacheName != nil
	if active != (m.ExpireTime != nil) || active != (m.InvocationsUsed != nil) {
		return nil
	}
	if active && !cacheNamePattern.MatchString(m.GetCacheName()) {
		return nil
	}
	return m
}

// unixSeconds is t as fractional seconds since the epoch, as Python's
// time.time() gives it.
func unixSeconds(t time.Time) float64 {
	return float64(t.UnixNano()) / 1e9
}

// recoverCall returns the result of f, or errUnreadableAnswer when the SDK
// panics on an answer it cannot convert.
func recoverCall[T any](f func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			v, err = zero, fmt.Errorf("%w: %v", errUnreadableAnswer, r)
		}
	}()
	return f()
}
