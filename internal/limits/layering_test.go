package limits_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLimitsIsALeaf checks that the package every layer calls imports
// only the standard library, protobuf and the API's message types, so that
// the engine, the stores and the server may all use it.
func TestLimitsIsALeaf(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case !strings.Contains(strings.SplitN(dep, "/", 2)[0], "."), // the standard library
			strings.HasPrefix(dep, "google.golang.org/protobuf/"),
			dep == "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1",
			dep == "github.com/agentsvc/agentsvc/internal/limits":
		default:
			t.Errorf("limits depends on %s", dep)
		}
	}
}
