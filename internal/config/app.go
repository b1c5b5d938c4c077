package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/plugins"
)

// AppFile holds an app's own settings, next to its root agent.
const AppFile = "app.yaml"

// AppSettings are the app-level settings of app.yaml.
type AppSettings struct {
	// ResumabilityConfig makes invocations resumable (ADK's
	// ResumabilityConfig).
	ResumabilityConfig *struct {
		IsResumable bool `yaml:"is_resumable"`
	} `yaml:"resumability_config"`
	// EventsCompactionConfig summarises older invocations (ADK's
	// EventsCompactionConfig: sliding window and token threshold).
	EventsCompactionConfig *CompactionSettings `yaml:"events_compaction_config"`
	// ContextCacheConfig turns on Gemini context caching (ADK's
	// ContextCacheConfig).
	ContextCacheConfig *ContextCacheSettings `yaml:"context_cache_config"`
	// Plugins name built-in plugins (see package plugins), with their
	// constructor arguments, applied in order.
	Plugins []PluginRef `yaml:"plugins"`
	// ADKBehavior is the ADK release line the app behaves like where 1.x
	// and 2.x differ: "1.x" (the default) or "2.x".
	ADKBehavior string         `yaml:"adk_behavior"`
	Extra       map[string]any `yaml:",inline"`
}

// PluginRef names a built-in plugin, with optional arguments.
type PluginRef struct {
	Name  string         `yaml:"name"`
	Args  map[string]any `yaml:"args"`
	Extra map[string]any `yaml:",inline"`
}

// CompactionSettings are the fields of events_compaction_config: the
// sliding window's two are required, as in ADK, and the token threshold's
// two are optional but set together. The root agent's model writes the summaries.
type CompactionSettings struct {
	// CompactionInterval is the number of new invocations that triggers a
	// summary; at least 1.
	CompactionInterval *int `yaml:"compaction_interval"`
	// OverlapSize is the number of earlier invocations a summary covers
	// again; at least 0.
	OverlapSize *int `yaml:"overlap_size"`
	// TokenThreshold, with EventRetentionSize, summarises the older events
	// at the end of an invocation once the latest prompt reached this
	// many tokens; above 0.
	TokenThreshold *int `yaml:"token_threshold"`
	// EventRetentionSize is the number of latest events a token-threshold
	// summary keeps raw; at least 0.
	EventRetentionSize *int           `yaml:"event_retention_size"`
	Extra              map[string]any `yaml:",inline"`
}

// check validates the fields, naming the first wrong one.
func (c *CompactionSettings) check() error {
	const field = "events_compaction_config"
	for k := range c.Extra {
		return fmt.Errorf("%s.%s: unknown field", field, k)
	}
	switch {
	case c.CompactionInterval == nil:
		return fmt.Errorf("%s.compaction_interval: required", field)
	case *c.CompactionInterval < 1:
		return fmt.Errorf("%s.compaction_interval: must be at least 1, got %d", field, *c.CompactionInterval)
	case c.OverlapSize == nil:
		return fmt.Errorf("%s.overlap_size: required", field)
	case *c.OverlapSize < 0:
		return fmt.Errorf("%s.overlap_size: must not be negative, got %d", field, *c.OverlapSize)
	case (c.TokenThreshold == nil) != (c.EventRetentionSize == nil):
		// ADK's message for the pair.
		return fmt.Errorf("%s: token_threshold and event_retention_size must be set together.", field) //nolint:staticcheck // ST1005: ADK's message, word for word.
	case c.TokenThreshold != nil && *c.TokenThreshold < 1:
		return fmt.Errorf("%s.token_threshold: must be greater than 0, got %d", field, *c.TokenThreshold)
	case c.EventRetentionSize != nil && *c.EventRetentionSize < 0:
		return fmt.Errorf("%s.event_retention_size: must not be negative, got %d", field, *c.EventRetentionSize)
	}
	return nil
}

// Resumable reports whether the app's invocations are resumable.
func (s *AppSettings) Resumable() bool {
	return s != nil && s.ResumabilityConfig != nil && s.ResumabilityConfig.IsResumable
}

// loadSettings reads dir/app.yaml when it exists.
func loadSettings(fsys fs.FS, dir string) (*AppSettings, error) {
	file := path.Join(dir, AppFile)
	data, err := fs.ReadFile(fsys, file)
	if errors.Is(err, fs.ErrNotExist) {
		return &AppSettings{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	s := &AppSettings{}
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(s); err != nil {
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	for k := range s.Extra {
		return nil, fmt.Errorf("%s: %s: unknown field", file, k)
	}
	if c := s.EventsCompactionConfig; c != nil {
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	if c := s.ContextCacheConfig; c != nil {
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	if _, err := s.plugins(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if _, err := runtime.ParseBehavior(s.ADKBehavior); err != nil {
		return nil, fmt.Errorf("%s: adk_behavior: %w", file, err)
	}
	return s, nil
}

// Behavior returns the ADK release line the app behaves like; settings
// that loaded have a valid one.
func (s *AppSettings) Behavior() runtime.Behavior {
	if s == nil {
		return runtime.Behavior1x
	}
	b, _ := runtime.ParseBehavior(s.ADKBehavior)
	return b
}

// plugins builds the plugins s names, in order.
func (s *AppSettings) plugins() ([]*runtime.Plugin, error) {
	list := make([]*runtime.Plugin, 0, len(s.Plugins))
	for i, ref := range s.Plugins {
		for k := range ref.Extra {
			return nil, fmt.Errorf("plugins[%d].%s: unknown field", i, k)
		}
		p, err := plugins.New(ref.Name, ref.Args)
		if err != nil {
			return nil, fmt.Errorf("plugins[%d]: %w", i, err)
		}
		list = append(list, p)
	}
	if _, err := runtime.NewPlugins(list...); err != nil {
		return nil, fmt.Errorf("plugins: %w", err)
	}
	return list, nil
}
