package auth_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAuthIsALeaf checks that the auth package depends on no other package
// of the service, nor on gRPC: the server, the audit log and the binary
// import it, never the other way round.
func TestAuthIsALeaf(t *testing.T) {
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
		case dep == "github.com/agentsvc/agentsvc/internal/auth":
		case strings.HasPrefix(dep, "github.com/agentsvc/agentsvc/"),
			strings.HasPrefix(dep, "google.golang.org/grpc"):
			t.Errorf("auth depends on %s", dep)
		}
	}
}
