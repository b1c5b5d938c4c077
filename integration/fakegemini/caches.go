package fakegemini

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxCaches bounds the caches a server holds at once.
const maxCaches = 1000

// The Gemini API's answers about cached contents.
const (
	// msgCacheNotFound answers a name that is unknown, deleted or expired.
	msgCacheNotFound = "CachedContent not found (or permission denied)"
	// msgCacheWithConfig answers a generateContent request that names a
	// cache and sets what a cache holds.
	msgCacheWithConfig = "CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config."
)

// The methods of the Caches API, as recorded in [Request.Method].
const (
	methodCacheCreate = "cachedContents.create"
	methodCacheGet    = "cachedContents.get"
	methodCacheList   = "cachedContents.list"
	methodCachePatch  = "cachedContents.patch"
	methodCacheDelete = "cachedContents.delete"
)

// cachedContent is one cache the server holds.
type cachedContent struct {
	name, displayName, model string
	created, updated, expire time.Time
	// body holds the cached request fields: contents, systemInstruction,
	// tools and toolConfig.
	body   map[string]any
	tokens int
}

// cacheStore holds the server's caches and its clock, which the control
// API moves forward so that caches expire without waiting. Guarded by the
// server's mutex.
type cacheStore struct {
	items map[string]*cachedContent
	seq   int
	// offset is how far the server's clock runs ahead of the real one.
	offset time.Duration
}

// now is the server's clock. Callers hold the server's mutex.
func (c *cacheStore) now() time.Time { return time.Now().Add(c.offset) }

// live returns the cache called name unless it is missing or expired.
// Callers hold the server's mutex.
func (c *cacheStore) live(name string) *cachedContent {
	cc := c.items[name]
	if cc == nil || !c.now().Before(cc.expire) {
		return nil
	}
	return cc
}

func (c *cacheStore) reset() {
	c.items, c.seq, c.offset = nil, 0, 0
}

// AdvanceClock moves the server's clock forward by d (never back); caches
// whose expiry it passes are gone. It returns the new time.
func (s *Server) AdvanceClock(d time.Duration) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.caches.offset += max(d, 0)
	return s.caches.now()
}

// Caches returns the names of the live caches, in no order.
func (s *Server) Caches() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for name := range s.caches.items {
		if s.caches.live(name) != nil {
			out = append(out, name)
		}
	}
	return out
}

// clockRequest is the body of POST /_fake/clock.
type clockRequest struct {
	AdvanceSeconds float64 `json:"advanceSeconds"`
}

// handleClock serves POST /_fake/clock: it moves the server's clock forward
// by advanceSeconds and answers {"now": RFC 3339 time}.
func (s *Server) handleClock(w http.ResponseWriter, r *http.Request) {
	var c clockRequest
	if !decodeControl(w, r, &c) {
		return
	}
	if c.AdvanceSeconds < 0 || c.AdvanceSeconds > 1e9 {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: "fakegemini: advanceSeconds must be between 0 and 1e9"})
		return
	}
	now := s.AdvanceClock(time.Duration(c.AdvanceSeconds * float64(time.Second)))
	writeJSON(w, map[string]string{"now": now.UTC().Format(time.RFC3339Nano)})
}

// cacheRoutes serves the Caches API on the Gemini API paths
// (/v1beta/cachedContents) and the Vertex AI ones
// (/v1beta1/projects/P/locations/L/cachedContents).
func (s *Server) cacheRoutes(mux *http.ServeMux) {
	for _, base := range []string{"/{ver}/cachedContents", "/{ver}/projects/{p}/locations/{l}/cachedContents"} {
		mux.HandleFunc("POST "+base, s.handleCacheCreate)
		mux.HandleFunc("GET "+base, s.handleCacheList)
		mux.HandleFunc("GET "+base+"/{id}", s.handleCacheGet)
		mux.HandleFunc("PATCH "+base+"/{id}", s.handleCachePatch)
		mux.HandleFunc("DELETE "+base+"/{id}", s.handleCacheDelete)
	}
}

// cacheName is the resource name of the path's cache: the path after its
// API version.
func cacheName(r *http.Request) string {
	return strings.TrimPrefix(r.URL.Path, "/"+r.PathValue("ver")+"/")
}

// readCacheBody reads and records a Caches API request; it answers 400 and
// returns false when the body is not a JSON object.
func (s *Server) readCacheBody(w http.ResponseWriter, r *http.Request, method string) (map[string]any, bool) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: "Cannot read the request body."})
		return nil, false
	}
	body := map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &body); err != nil {
			writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: "Invalid JSON payload received: " + err.Error()})
			return nil, false
		}
	} else {
		raw = []byte("{}")
	}
	model, _ := body["model"].(string)
	header := r.Header.Clone()
	hasKey := header.Get("X-Goog-Api-Key") != "" || r.URL.Query().Get("key") != ""
	header.Del("X-Goog-Api-Key")
	header.Del("Authorization")
	s.mu.Lock()
	s.log.add(Request{Model: model, Method: method, Path: r.URL.Path, Header: header, HasAPIKey: hasKey,
		Time: time.Now(), raw: raw})
	s.mu.Unlock()
	return body, true
}

// handleCacheCreate creates a cache from a CachedContent body with a ttl
// or an expireTime.
func (s *Server) handleCacheCreate(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readCacheBody(w, r, methodCacheCreate)
	if !ok {
		return
	}
	model, _ := body["model"].(string)
	if model == "" {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: "CachedContent.model is required."})
		return
	}
	cached := map[string]any{}
	for _, k := range []string{"contents", "systemInstruction", "tools", "toolConfig"} {
		if v, ok := body[k]; ok {
			cached[k] = v
		}
	}
	display, _ := body["displayName"].(string)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.caches.now()
	expire, err := expiry(body, now)
	if err != nil {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: err.Error()})
		return
	}
	if len(s.caches.items) >= maxCaches {
		writeAPIError(w, APIError{Code: http.StatusTooManyRequests, Message: "fakegemini: too many cached contents"})
		return
	}
	s.caches.seq++
	name := cacheName(r) + "/cache" + strconv.Itoa(s.caches.seq)
	cc := &cachedContent{name: name, displayName: display, model: model, created: now, updated: now, expire: expire,
		body: cached, tokens: inspect(cached).promptWords}
	if s.caches.items == nil {
		s.caches.items = map[string]*cachedContent{}
	}
	s.caches.items[name] = cc
	writeJSON(w, cc.resource())
}

// expiry reads a ttl ("300s", "1.5s") or an expireTime from body; without
// either a cache lives an hour, as in the Gemini API.
func expiry(body map[string]any, now time.Time) (time.Time, error) {
	if ttl, ok := body["ttl"].(string); ok {
		secs, err := strconv.ParseFloat(strings.TrimSuffix(ttl, "s"), 64)
		if err != nil || !strings.HasSuffix(ttl, "s") || secs <= 0 || secs > 1e9 {
			return time.Time{}, fmt.Errorf("Invalid value at 'cached_content.ttl' (type.googleapis.com/google.protobuf.Duration), %q", ttl) //nolint:staticcheck // ST1005: the Gemini API's message, word for word.
		}
		return now.Add(time.Duration(secs * float64(time.Second))), nil
	}
	if at, ok := body["expireTime"].(string); ok {
		t, err := time.Parse(time.RFC3339Nano, at)
		if err != nil {
			return time.Time{}, fmt.Errorf("Invalid value at 'cached_content.expire_time' (type.googleapis.com/google.protobuf.Timestamp), %q", at) //nolint:staticcheck // ST1005: the Gemini API's message, word for word.
		}
		return t, nil
	}
	return now.Add(time.Hour), nil
}

// resource is the CachedContent JSON of c, without the cached fields, as
// the API answers.
func (c *cachedContent) resource() map[string]any {
	out := map[string]any{
		"name":          c.name,
		"model":         c.model,
		"createTime":    c.created.UTC().Format(time.RFC3339Nano),
		"updateTime":    c.updated.UTC().Format(time.RFC3339Nano),
		"expireTime":    c.expire.UTC().Format(time.RFC3339Nano),
		"usageMetadata": map[string]any{"totalTokenCount": c.tokens},
	}
	if c.displayName != "" {
		out["displayName"] = c.displayName
	}
	return out
}

func (s *Server) handleCacheGet(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.readCacheBody(w, r, methodCacheGet); !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cc := s.caches.live(cacheName(r))
	if cc == nil {
		writeAPIError(w, APIError{Code: http.StatusForbidden, Message: msgCacheNotFound})
		return
	}
	writeJSON(w, cc.resource())
}

// handleCachePatch updates a cache's ttl or expireTime.
func (s *Server) handleCachePatch(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readCacheBody(w, r, methodCachePatch)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cc := s.caches.live(cacheName(r))
	if cc == nil {
		writeAPIError(w, APIError{Code: http.StatusForbidden, Message: msgCacheNotFound})
		return
	}
	now := s.caches.now()
	expire, err := expiry(body, now)
	if err != nil {
		writeAPIError(w, APIError{Code: http.StatusBadRequest, Message: err.Error()})
		return
	}
	cc.expire, cc.updated = expire, now
	writeJSON(w, cc.resource())
}

func (s *Server) handleCacheDelete(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.readCacheBody(w, r, methodCacheDelete); !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	name := cacheName(r)
	if s.caches.live(name) == nil {
		writeAPIError(w, APIError{Code: http.StatusForbidden, Message: msgCacheNotFound})
		return
	}
	delete(s.caches.items, name)
	writeJSON(w, map[string]any{})
}

// handleCacheList answers every live cache in one page.
func (s *Server) handleCacheList(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.readCacheBody(w, r, methodCacheList); !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := []any{}
	for name, cc := range s.caches.items {
		if s.caches.live(name) != nil {
			list = append(list, cc.resource())
		}
	}
	writeJSON(w, map[string]any{"cachedContents": list})
}

// withCache resolves the cachedContent a generateContent body names: it
// returns the body with the cache's fields put in (its contents before the
// request's) and the cache's token count. A body without one comes back as
// it is. A failure is the API error to answer.
func (s *Server) withCache(model string, body map[string]any) (map[string]any, int, *APIError) {
	name, _ := body["cachedContent"].(string)
	if name == "" {
		return body, 0, nil
	}
	for _, k := range []string{"systemInstruction", "tools", "toolConfig"} {
		if _, ok := body[k]; ok {
			return nil, 0, &APIError{Code: http.StatusBadRequest, Message: msgCacheWithConfig}
		}
	}
	s.mu.Lock()
	cc := s.caches.live(name)
	s.mu.Unlock()
	if cc == nil {
		return nil, 0, &APIError{Code: http.StatusForbidden, Message: msgCacheNotFound}
	}
	if cacheModel := cc.model[strings.LastIndex(cc.model, "/")+1:]; cacheModel != model {
		return nil, 0, &APIError{Code: http.StatusBadRequest, Message: fmt.Sprintf(
			"Model used by GenerateContent request (models/%s) and CachedContent (models/%s) has to be the same.", model, cacheModel)}
	}
	merged := make(map[string]any, len(body)+3)
	for k, v := range body {
		merged[k] = v
	}
	for k, v := range cc.body {
		if k != "contents" {
			merged[k] = v
		}
	}
	cached, _ := cc.body["contents"].([]any)
	own, _ := body["contents"].([]any)
	merged["contents"] = append(append(make([]any, 0, len(cached)+len(own)), cached...), own...)
	return merged, cc.tokens, nil
}

// withCachedTokens sets usageMetadata.cachedContentTokenCount of an encoded
// response to n, adding usage metadata when add is set and it has none.
func withCachedTokens(resp json.RawMessage, n int, add bool) json.RawMessage {
	var m map[string]any
	if err := json.Unmarshal(resp, &m); err != nil {
		return resp
	}
	u, ok := m["usageMetadata"].(map[string]any)
	if !ok {
		if !add {
			return resp
		}
		u = map[string]any{}
		m["usageMetadata"] = u
	}
	u["cachedContentTokenCount"] = n
	out, err := json.Marshal(m)
	if err != nil {
		return resp
	}
	return out
}

// withCachedTokens returns e with cachedContentTokenCount n in its usage
// metadata: on the response, or on every chunk that has usage metadata
// and always on the last.
func (e entry) withCachedTokens(n int) entry {
	if e.response != nil {
		e.response = withCachedTokens(e.response, n, true)
	}
	if len(e.chunks) > 0 {
		chunks := make([]json.RawMessage, len(e.chunks))
		for i, c := range e.chunks {
			chunks[i] = withCachedTokens(c, n, i == len(e.chunks)-1)
		}
		e.chunks = chunks
	}
	return e
}
