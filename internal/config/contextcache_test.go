package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func TestContextCacheConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, app string
		want      *v1.ContextCacheConfig
	}{
		{"off", "adk_behavior: \"1.x\"\n", nil},
		// ADK's ContextCacheConfig defaults.
		{"defaults", "context_cache_config: {}\n", &v1.ContextCacheConfig{CacheIntervals: 10, TtlSeconds: 1800}},
		{"set", "context_cache_config:\n  cache_intervals: 3\n  ttl_seconds: 60\n  min_tokens: 4096\n",
			&v1.ContextCacheConfig{CacheIntervals: 3, TtlSeconds: 60, MinTokens: 4096}},
		{"bounds", "context_cache_config:\n  cache_intervals: 100\n  ttl_seconds: 1\n  min_tokens: 0\n",
			&v1.ContextCacheConfig{CacheIntervals: 100, TtlSeconds: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{
				"s/root_agent.yaml": {Data: []byte("name: a\nmodel: gemini-2.5-flash\n")},
				"s/app.yaml":        {Data: []byte(tt.app)},
			}
			apps, err := LoadAll(fsys)
			if err != nil {
				t.Fatal(err)
			}
			app, _, err := Build(apps[0])
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, app.ContextCache, protocmp.Transform()); diff != "" {
				t.Errorf("context cache config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestContextCacheConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, app, want string
	}{
		{"zero intervals", "context_cache_config:\n  cache_intervals: 0\n",
			"s/app.yaml: context_cache_config.cache_intervals: must be between 1 and 100, got 0"},
		{"too many intervals", "context_cache_config:\n  cache_intervals: 101\n",
			"s/app.yaml: context_cache_config.cache_intervals: must be between 1 and 100, got 101"},
		{"zero ttl", "context_cache_config:\n  ttl_seconds: 0\n",
			"s/app.yaml: context_cache_config.ttl_seconds: must be between 1 and 2147483647, got 0"},
		{"huge ttl", "context_cache_config:\n  ttl_seconds: 2147483648\n",
			"s/app.yaml: context_cache_config.ttl_seconds: must be between 1 and 2147483647, got 2147483648"},
		{"negative min tokens", "context_cache_config:\n  min_tokens: -1\n",
			"s/app.yaml: context_cache_config.min_tokens: must be between 0 and 2147483647, got -1"},
		{"unknown field", "context_cache_config:\n  ttl: 5\n", "s/app.yaml: context_cache_config.ttl: unknown field"},
		{"not a number", "context_cache_config:\n  ttl_seconds: long\n", "s/app.yaml: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{
				"s/root_agent.yaml": {Data: []byte("name: a\nmodel: m\n")},
				"s/app.yaml":        {Data: []byte(tt.app)},
			}
			_, err := LoadAll(fsys)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
