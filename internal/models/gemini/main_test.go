package gemini_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"go.uber.org/goleak"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/retry"
)

func TestMain(m *testing.M) {
	// The SDK's auth dependency imports OpenCensus, whose init starts a
	// worker that lives for the whole process.
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("go.opencensus.io/stats/view.(*worker).start"))
}

// fastRetry retries quickly so that tests of retries stay fast.
var fastRetry = retry.Config{MaxAttempts: 3, InitialDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond, BackoffFactor: 2,
	Exceptions: models.TransientClasses}

// newFake starts a fake Gemini server and a provider talking to it.
func newFake(t *testing.T, cfg gemini.Config) (*fakegemini.Server, models.Resolver) {
	t.Helper()
	fake := fakegemini.New()
	srv := httptest.NewServer(fake.Handler())
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	cfg.BaseURL = srv.URL
	cfg.HTTPClient = &http.Client{Transport: transport}
	if cfg.APIKey == "" && cfg.Backend != gemini.BackendVertexAI {
		cfg.APIKey = "test-key"
	}
	if cfg.Retry.MaxAttempts == 0 {
		cfg.Retry = fastRetry
	}
	p, err := gemini.New(t.Context(), cfg)
	if err != nil {
		t.Fatalf("gemini.New: %v", err)
	}
	return fake, p
}

// backendConfig returns a Config for the Vertex AI backend or the Gemini API.
func backendConfig(vertex bool) gemini.Config {
	if vertex {
		return gemini.Config{Backend: gemini.BackendVertexAI, Project: "proj", Location: "us-central1"}
	}
	return gemini.Config{}
}

// collect runs one call and returns what it yielded.
func collect(ctx context.Context, t *testing.T, r models.Resolver, req *v1.LlmRequest, stream bool) ([]*v1.LlmResponse, error) {
	t.Helper()
	m, err := r.Model(ctx, req.GetModel())
	if err != nil {
		t.Fatalf("Model: %v", err)
	}
	var out []*v1.LlmResponse
	for resp, err := range m.GenerateContent(ctx, req, stream) {
		if err != nil {
			return out, err
		}
		out = append(out, resp)
	}
	return out, nil
}
