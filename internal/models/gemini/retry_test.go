package gemini

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// retryFake returns a fake Gemini server and a provider with policy whose
// waits are recorded instead of slept, with jitter draws fixed at
// random() = 0.75.
func retryFake(t *testing.T, policy retry.Config) (*fakegemini.Server, *Provider, *[]time.Duration) {
	t.Helper()
	fake := fakegemini.New()
	srv := httptest.NewServer(fake.Handler())
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	p, err := New(t.Context(), Config{APIKey: "k", BaseURL: srv.URL, HTTPClient: &http.Client{Transport: transport}, Retry: policy})
	if err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	p.retry.env.Sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	p.retry.env.Uniform = func(lo, hi float64) float64 { return lo + (hi-lo)*0.75 }
	return fake, p, &waits
}

func generate(ctx context.Context, t *testing.T, p *Provider, stream bool) error {
	t.Helper()
	m, err := p.Model(ctx, "gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	req := &v1.LlmRequest{Contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "q"}}}}}
	for _, err := range m.GenerateContent(ctx, req, stream) {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestDefaultRetryWaits checks the default policy's waits with an injected
// clock: 250ms then 500ms, each moved by +50% of ±40% (random() = 0.75).
func TestDefaultRetryWaits(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		fake, p, waits := retryFake(t, retry.Config{})
		fake.FailNext(2, http.StatusServiceUnavailable, "busy")
		if err := generate(t.Context(), t, p, stream); err != nil {
			t.Fatalf("stream %v: %v", stream, err)
		}
		want := []time.Duration{300 * time.Millisecond, 600 * time.Millisecond}
		if d := cmp.Diff(want, *waits); d != "" {
			t.Errorf("stream %v: waits (-want +got):\n%s", stream, d)
		}
		if n := len(fake.Requests()); n != 3 {
			t.Errorf("stream %v: %d requests, want 3", stream, n)
		}
	}
}

// TestRetryPolicyFromContext checks that a policy on the call's context
// (an agent's retry_config) replaces the provider's: here it retries a 400,
// which the default leaves alone, five times in all.
func TestRetryPolicyFromContext(t *testing.T) {
	t.Parallel()
	fake, p, waits := retryFake(t, retry.Config{})
	fake.FailNext(10, http.StatusBadRequest, "bad")
	policy := retry.Config{MaxAttempts: 5, InitialDelay: time.Second, MaxDelay: 3 * time.Second, BackoffFactor: 2, Exceptions: []string{"ClientError"}}
	if err := generate(retry.NewContext(t.Context(), policy), t, p, false); err == nil {
		t.Fatal("a call failing 10 times succeeded")
	}
	want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 3 * time.Second}
	if d := cmp.Diff(want, *waits); d != "" {
		t.Errorf("waits (-want +got):\n%s", d)
	}
	if n := len(fake.Requests()); n != 5 {
		t.Errorf("%d requests, want 5", n)
	}
}
