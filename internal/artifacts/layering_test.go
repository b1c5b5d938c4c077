package artifacts_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestContractLinksNoBlobSDK keeps the contract package light: the engine
// depends on it, so it must not pull in a blob store or cloud SDK (those live
// in blobstore).
func TestContractLinksNoBlobSDK(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/agentsvc/agentsvc/internal/artifacts").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case strings.HasPrefix(dep, "gocloud.dev"),
			strings.HasPrefix(dep, "github.com/aws/"),
			strings.HasPrefix(dep, "cloud.google.com/"),
			strings.HasPrefix(dep, "github.com/agentsvc/agentsvc/internal/artifacts/blobstore"):
			t.Errorf("internal/artifacts depends on %s", dep)
		}
	}
}
