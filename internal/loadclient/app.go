package loadclient

import (
	"os"
	"path/filepath"
)

// WriteApp writes agent as dir/app/root_agent.yaml, creating the app's
// directory, and returns the file's path.
func WriteApp(dir, app string, agent []byte) (string, error) {
	if err := os.MkdirAll(filepath.Join(dir, app), 0o755); err != nil {
		return "", err
	}
	file := filepath.Join(dir, app, "root_agent.yaml")
	if err := os.WriteFile(file, agent, 0o644); err != nil {
		return "", err
	}
	return file, nil
}
