package memory_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLayering: the interface imports no backend and no Redis client, so
// that the engine can depend on it alone; the in-memory store imports no
// Redis either; and nothing here reaches up into the engine or the server.
func TestLayering(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	const mod = "github.com/agentsvc/agentsvc/"
	for pkg, banned := range map[string][]string{
		".":           {mod + "internal/memory/", "github.com/redis/"},
		"./inmemory":  {mod + "internal/memory/redis", "github.com/redis/"},
		"./redis":     {mod + "internal/memory/inmemory"},
		"./memoryurl": {},
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range append(banned, mod+"internal/runtime", mod+"internal/server", mod+"internal/sessions", mod+"cmd/") {
				if strings.HasPrefix(dep, b) {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}
