package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEngineImportsNoAnthropicSDK checks that the Anthropic SDK, like every
// model SDK, stays in its adapter (internal/models/anthropic).
func TestEngineImportsNoAnthropicSDK(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/anthropics/anthropic-sdk-go") {
			t.Errorf("the engine depends on %s", dep)
		}
	}
}
