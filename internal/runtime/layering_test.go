package runtime_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestEngineImportsNoService checks that the engine depends on the API's
// message types only: not on the server, the generated service code (gRPC
// and gateway) or gRPC itself; and that it speaks to OpenTelemetry through
// its API only, never its SDK or exporters; nor on a model SDK.
func TestEngineImportsNoService(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case dep == "google.golang.org/grpc",
			strings.HasPrefix(dep, "github.com/grpc-ecosystem/grpc-gateway"),
			strings.HasPrefix(dep, "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"),
			strings.HasPrefix(dep, "github.com/agentsvc/agentsvc/internal/server"),
			strings.HasPrefix(dep, "go.opentelemetry.io/otel/sdk"),
			strings.HasPrefix(dep, "github.com/a2aproject/a2a-go"),
			strings.HasPrefix(dep, "go.opentelemetry.io/otel/exporters"),
			// Model SDKs stay in their adapters (e.g. Gemini's context
			// caching lives in models/gemini, the engine only carries its
			// config and metadata).
			strings.HasPrefix(dep, "google.golang.org/genai"),
			strings.HasPrefix(dep, "github.com/openai/openai-go"):
			t.Errorf("the engine depends on %s", dep)
		}
	}
}
