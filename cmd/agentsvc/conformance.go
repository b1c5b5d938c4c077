package main

import (
	"fmt"
	"log/slog"

	"github.com/agentsvc/agentsvc/internal/conformance"
	"github.com/agentsvc/agentsvc/internal/server"
)

// addReplay gives every app ADK's conformance replay and recording
// plugins, after its own plugins, when dir is set.
func addReplay(apps []*server.App, dir string, log *slog.Logger) error {
	if dir == "" {
		return nil
	}
	rp, err := conformance.NewReplayer(dir)
	if err != nil {
		return fmt.Errorf("--conformance-dir: %w", err)
	}
	rec, err := conformance.NewRecorder(dir)
	if err != nil {
		return fmt.Errorf("--conformance-dir: %w", err)
	}
	for _, a := range apps {
		ps, err := a.Runner.App.Plugins.With(rp.Plugin(), rec.Plugin())
		if err != nil {
			return fmt.Errorf("--conformance-dir: app %s: %w", a.Runner.App.Name, err)
		}
		a.Runner.App.Plugins = ps
	}
	log.Warn("conformance replay and recording are on: runs may read and write recordings under the conformance directory", "dir", dir)
	return nil
}
