package a2a_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestA2AImportsNoServer: the A2A glue sits below the server, which mounts
// it, and beside the engine, which it reaches only through an Invoker. It
// may use pyfmt, a leaf that formats values as Python writes them and
// imports no engine.
func TestA2AImportsNoServer(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "github.com/agentsvc/agentsvc/internal/runtime/pyfmt" {
			continue
		}
		if strings.HasPrefix(dep, "github.com/agentsvc/agentsvc/internal/server") ||
			strings.HasPrefix(dep, "github.com/agentsvc/agentsvc/internal/runtime") {
			t.Errorf("internal/a2a depends on %s", dep)
		}
	}
}
