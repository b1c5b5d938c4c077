package redisurl

import (
	"os/exec"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// TestImportsOnlyGoRedis: the Redis stores share this package, so it
// imports none of theirs, only go-redis and the standard library.
func TestImportsOnlyGoRedis(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if strings.Contains(first, ".") && !strings.HasPrefix(imp, "github.com/redis/go-redis/v9") {
			t.Errorf("imports %s", imp)
		}
	}
}
