package anthropic_test

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// The Vertex AI option imports Google's auth libraries, whose
	// OpenCensus dependency starts a worker that lives for the process.
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("go.opencensus.io/stats/view.(*worker).start"))
}
