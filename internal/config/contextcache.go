package config

import (
	"fmt"
	"math"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// ContextCacheSettings are the fields of app.yaml's context_cache_config
// (ADK's ContextCacheConfig). Its presence turns Gemini context caching on
// for every LLM agent of the app; unset fields take ADK's defaults.
type ContextCacheSettings struct {
	// CacheIntervals is the number of invocations a cache serves before it
	// is refreshed: 1 to 100, default 10.
	CacheIntervals *int `yaml:"cache_intervals"`
	// TTLSeconds is a cache's lifetime: more than 0, default 1800.
	TTLSeconds *int `yaml:"ttl_seconds"`
	// MinTokens is the prompt token count a request needs before it is
	// cached: at least 0, default 0.
	MinTokens *int           `yaml:"min_tokens"`
	Extra     map[string]any `yaml:",inline"`
}

// ADK's ContextCacheConfig defaults.
const (
	defaultCacheIntervals = 10
	defaultCacheTTL       = 1800
)

// check validates the fields against ADK's bounds, naming the first wrong
// one. ADK sets no upper bound on ttl_seconds and min_tokens; here they
// must fit 32 bits.
func (c *ContextCacheSettings) check() error {
	const field = "context_cache_config"
	for k := range c.Extra {
		return fmt.Errorf("%s.%s: unknown field", field, k)
	}
	switch {
	case c.CacheIntervals != nil && (*c.CacheIntervals < 1 || *c.CacheIntervals > 100):
		return fmt.Errorf("%s.cache_intervals: must be between 1 and 100, got %d", field, *c.CacheIntervals)
	case c.TTLSeconds != nil && (*c.TTLSeconds <= 0 || *c.TTLSeconds > math.MaxInt32):
		return fmt.Errorf("%s.ttl_seconds: must be between 1 and %d, got %d", field, math.MaxInt32, *c.TTLSeconds)
	case c.MinTokens != nil && (*c.MinTokens < 0 || *c.MinTokens > math.MaxInt32):
		return fmt.Errorf("%s.min_tokens: must be between 0 and %d, got %d", field, math.MaxInt32, *c.MinTokens)
	}
	return nil
}

// config returns the settings with ADK's defaults filled in; nil when
// caching is off. The settings must have passed check.
func (c *ContextCacheSettings) config() *v1.ContextCacheConfig {
	if c == nil {
		return nil
	}
	out := &v1.ContextCacheConfig{CacheIntervals: defaultCacheIntervals, TtlSeconds: defaultCacheTTL}
	if c.CacheIntervals != nil {
		out.CacheIntervals = int32(*c.CacheIntervals)
	}
	if c.TTLSeconds != nil {
		out.TtlSeconds = int32(*c.TTLSeconds)
	}
	if c.MinTokens != nil {
		out.MinTokens = int32(*c.MinTokens)
	}
	return out
}
