package auth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// Bounds of the cache of verified tokens.
const (
	// tokenCacheSize is the most tokens the cache holds; when it is full it
	// starts afresh.
	tokenCacheSize = 10000
	// tokenCacheTTL is the longest a verified token is served from the
	// cache, so that a key removed from the JWKS stops serving soon.
	tokenCacheTTL = time.Minute
)

// tokenCache remembers the identities of verified tokens, keyed by the
// tokens' SHA-256, until the token expires or the cache TTL passes, so that
// a client sending the same token on every call pays for one signature
// check a minute rather than one a call. It is safe for concurrent use.
type tokenCache struct {
	mu sync.RWMutex
	m  map[[sha256.Size]byte]cachedIdentity
}

type cachedIdentity struct {
	id    Identity
	until time.Time
}

// get returns the cached identity of token at now, if any.
func (c *tokenCache) get(sum [sha256.Size]byte, now time.Time) (*Identity, bool) {
	c.mu.RLock()
	e, ok := c.m[sum]
	c.mu.RUnlock()
	if !ok || !now.Before(e.until) {
		return nil, false
	}
	id := e.id
	return &id, true
}

// put caches id for the token of sum until the earlier of expiry and
// now plus the cache TTL.
func (c *tokenCache) put(sum [sha256.Size]byte, id *Identity, now, expiry time.Time) {
	until := now.Add(tokenCacheTTL)
	if expiry.Before(until) {
		until = expiry
	}
	if !now.Before(until) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= tokenCacheSize {
		c.m = make(map[[sha256.Size]byte]cachedIdentity)
	}
	c.m[sum] = cachedIdentity{id: *id, until: until}
}
