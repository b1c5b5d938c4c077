package codeexec_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCodeExecImportsNoEngine keeps the code execution rules a leaf below
// the engine: the LLM flow uses them, they never reach back into it.
func TestCodeExecImportsNoEngine(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/agentsvc/agentsvc/internal/") && dep != "github.com/agentsvc/agentsvc/internal/runtime/codeexec" {
			t.Errorf("codeexec depends on %s", dep)
		}
	}
}
