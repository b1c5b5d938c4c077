package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"gopkg.in/yaml.v3"
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
	// Plugins name registered plugins, applied in order.
	Plugins []CallbackRef  `yaml:"plugins"`
	Extra   map[string]any `yaml:",inline"`
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
	for i, p := range s.Plugins {
		return nil, fmt.Errorf("%s: plugins[%d]: no plugin named %q is registered", file, i, p.Name)
	}
	return s, nil
}
