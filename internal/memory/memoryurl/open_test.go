package memoryurl_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/memory/inmemory"
	"github.com/agentsvc/agentsvc/internal/memory/memoryurl"
	"github.com/agentsvc/agentsvc/internal/memory/redis"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func TestOpenSelectsTheBackend(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		want func(memory.Service) bool
	}{
		{"memory://", func(s memory.Service) bool { _, ok := s.(*inmemory.Service); return ok }},
		{"redis://127.0.0.1:6379/0", func(s memory.Service) bool { _, ok := s.(*redis.Service); return ok }},
		{"rediss://h:6380/1", func(s memory.Service) bool { _, ok := s.(*redis.Service); return ok }},
		{"redis+cluster://a:1,b:2", func(s memory.Service) bool { _, ok := s.(*redis.Service); return ok }},
		{"rediss+cluster://a:1", func(s memory.Service) bool { _, ok := s.(*redis.Service); return ok }},
	} {
		s, err := memoryurl.Open(t.Context(), tc.url, memoryurl.Options{})
		if err != nil {
			t.Errorf("Open(%q): %v", tc.url, err)
			continue
		}
		if !tc.want(s) {
			t.Errorf("Open(%q) = %T", tc.url, s)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	t.Parallel()
	for _, url := range []string{"", "memory", "memory://x", "memory://?a=1", "file:///tmp/x", "me:secret@h:1", "http://h", "redis://me:secret@h:port"} {
		s, err := memoryurl.Open(t.Context(), url, memoryurl.Options{})
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", url)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q): %v shows the password", url, err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := memoryurl.Open(ctx, "memory://", memoryurl.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with a cancelled context: %v", err)
	}
}

// TestOpenAppliesLimits: the limits reach whichever store Open opens.
func TestOpenAppliesLimits(t *testing.T) {
	t.Parallel()
	urls := []string{"memory://"}
	if u := os.Getenv("AGENTSVC_TEST_REDIS"); u != "" {
		urls = append(urls, u)
	}
	for _, url := range urls {
		s, err := memoryurl.Open(t.Context(), url, memoryurl.Options{
			Limits: memory.Limits{MaxQueryBytes: 4},
			Redis:  redis.Options{Limits: memory.Limits{MaxQueryBytes: 100}},
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Search(t.Context(), "app", "u", "hello"); !errors.Is(err, memory.ErrQueryTooLarge) {
			t.Errorf("%s: Search past the limit: %v, want ErrQueryTooLarge", url, err)
		}
		if err := s.Ping(t.Context()); err != nil {
			t.Errorf("%s: Ping: %v", url, err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
}
