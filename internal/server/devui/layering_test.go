package devui_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDevUIImportsNoServer: the dev UI's routes sit below the server, which
// registers them, and reach it only through a Host; they never depend on
// the server, gRPC, the gateway or the generated service code.
func TestDevUIImportsNoServer(t *testing.T) {
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
		case dep == "github.com/agentsvc/agentsvc/internal/server",
			dep == "google.golang.org/grpc",
			strings.HasPrefix(dep, "github.com/grpc-ecosystem/grpc-gateway"),
			strings.HasPrefix(dep, "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"):
			t.Errorf("internal/server/devui depends on %s", dep)
		}
	}
}
